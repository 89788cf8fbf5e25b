import { describe, expect, it } from 'vitest';
import { shownUrl, stateUrlProblem } from './state-url.js';

describe('--state-url', () => {
  it('takes postgres:// and postgresql:// URLs only, naming where the value came from', () => {
    expect(stateUrlProblem('--state-url', 'postgres://u:p@127.0.0.1:5432/mock')).toBeUndefined();
    expect(stateUrlProblem('--state-url', 'postgresql://127.0.0.1/mock')).toBeUndefined();
    expect(stateUrlProblem('--state-url', 'mysql://127.0.0.1/mock')).toMatch(
      /^--state-url: expected a PostgreSQL URL.*got a mysql: URL$/,
    );
    expect(stateUrlProblem('config.stateUrl', 'not a url')).toMatch(/^config\.stateUrl: .*no URL$/);
    expect(stateUrlProblem('config.stateUrl', 5432)).toMatch(/^config\.stateUrl: expected/);
  });

  it('never shows the password', () => {
    expect(shownUrl('postgres://mock:s3cret@db:5432/mock')).toBe('postgres://mock:***@db:5432/mock');
    expect(shownUrl('postgres://db/mock')).toBe('postgres://db/mock');
  });
});
