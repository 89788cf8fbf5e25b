/**
 * voice-kit/node: the mock as a real HTTP server, and what only Node has (files on disk). Everything
 * here may use Node built-ins; the service it serves is the platform-free core of `voice-kit`.
 *
 * @example
 * import { startMockServer } from 'voice-kit/node';
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
 * await server.close();
 */

export type {
  ExchangeRecord,
  ProxyOptions,
  ProxyReport,
  ProxyServer,
  Violation,
} from '../../proxy/index.js';
export { tempDirStorage } from './file-storage.js';
export { loadConfigFile } from './load-config.js';
export { resolveHost } from './resolve-host.js';
export {
  type MockServer,
  type MockServerOptions,
  type MockServerStartup,
  startMockServer,
} from './server.js';
export { StateDirError } from './state-dir-error.js';

/**
 * The validating proxy (docs/proxy.md), loaded on first use: the mock's startup does not pay for it.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://staging.example', port: 0 });
 */
export async function startProxy(
  options: import('../../proxy/index.js').ProxyOptions,
): Promise<import('../../proxy/index.js').ProxyServer> {
  return (await import('../../proxy/index.js')).startProxy(options);
}
