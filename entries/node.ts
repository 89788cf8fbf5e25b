/**
 * voice-kit/node: the mock as a real HTTP server, what only Node has (files on disk), and the validating
 * proxy. This entry lives in neither product's room: it re-exports both (the proxy loaded on first use).
 *
 * @example
 * import { startMockServer } from 'voice-kit/node';
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
 * await server.close();
 */

export { tempDirStorage } from '../mocks/node/file-storage.js';
export { loadConfigFile } from '../mocks/node/load-config.js';
export { resolveHost } from '../mocks/node/resolve-host.js';
export {
  type MockServer,
  type MockServerOptions,
  type MockServerStartup,
  startMockServer,
} from '../mocks/node/server.js';
export { StateDirError } from '../mocks/node/state-dir-error.js';
export { readProfileFile } from '../profile/profile-file.js';
export type {
  ExchangeRecord,
  ProxyOptions,
  ProxyReport,
  ProxyServer,
  Violation,
} from '../proxy/index.js';

/**
 * The validating proxy (docs/proxy.md), loaded on first use: the mock's startup does not pay for it.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://staging.example', port: 0 });
 */
export async function startProxy(
  options: import('../proxy/index.js').ProxyOptions,
): Promise<import('../proxy/index.js').ProxyServer> {
  return (await import('../proxy/index.js')).startProxy(options);
}
