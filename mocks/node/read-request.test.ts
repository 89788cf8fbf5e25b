import { describe, expect, it } from 'vitest';
import { firstHost, rawHeader } from './read-request.js';

describe('request headers read from Node rawHeaders', () => {
  const raw = [
    'Host',
    'mock.test:4010',
    'X-API-Key',
    'mock-key',
    'prefer',
    'code=503',
    'x-api-key',
    'second',
    'HOST',
    'b',
  ];

  it.each([
    ['x-api-key', 'mock-key, second'],
    ['X-API-KEY', 'mock-key, second'],
    ['Prefer', 'code=503'],
    ['content-type', null],
    ['x-api-ke', null],
  ])('%s → %j (as Fetch Headers.get joins repeats)', (name, value) => {
    expect(rawHeader(raw, name)).toBe(value);
  });

  it('takes the first Host, as Node does, and none without one', () => {
    expect(firstHost(raw)).toBe('mock.test:4010');
    expect(firstHost(['X-API-Key', 'k'])).toBeUndefined();
  });
});
