import { startMockServer } from '../../mocks/node/server.js';
import type { RunKeys } from '../toolkit/run-state.js';

/** The keys of the mock's default tenancy: they cover every need of every case. */
export const embeddedKeys: RunKeys = {
  main: 'mock-key',
  noClone: 'mock-key-no-clone',
  otherProject: 'mock-key-other-project',
  otherEnv: 'mock-key-other-env',
  otherOrg: 'mock-key-other-org',
};

/**
 * Start the kit's mock on a free port, over real HTTP (so chunked transfer and timing are real).
 *
 * @example
 * const mock = await startEmbeddedMock(); try { ... mock.url ... } finally { await mock.close(); }
 */
export async function startEmbeddedMock(): Promise<{ readonly url: string; close(): Promise<void> }> {
  // The suite serves its reference recording on loopback: the embedded mock may fetch it.
  const server = await startMockServer({ port: 0, allowPrivateUrls: true });
  return { url: server.url, close: () => server.close() };
}
