import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../server.js';
import { StateDirError } from '../state-dir-error.js';
import { openPostgresState } from './postgres-state.js';
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

describe('a database that cannot be used', () => {
  it('stops the start with one StateDirError naming it, the password hidden', async () => {
    // A loopback port nothing listens on: the connection is refused at once.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const refused = await openPostgresState(`postgres://mock:s3cret@127.0.0.1:${port}/mock`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StateDirError);
    const message = (refused as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^cannot use the database postgres://mock:\\*\\*\\*@127\\.0\\.0\\.1:${port}/mock: .*ECONNREFUSED`,
      ),
    );
    expect(message).not.toContain('s3cret');
  });

  it('is refused with --state-dir beside it', async () => {
    const refused = await startMockServer({
      port: 0,
      stateDir: 'x',
      stateUrl: 'postgres://127.0.0.1/x',
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as Error).message).toMatch(/not both/);
  });
});
