/**
 * The mock's control API through the proxy: the proxy rewrites Host to the upstream's, so without a
 * guard of its own a foreign Host (DNS rebinding) or a page of another site read the journal, the HAR
 * and the snapshot through it while the mock refused them directly. All on loopback.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { type ProxyServer, startProxy } from '../index.js';

let mock: MockServer;
let proxy: ProxyServer;
let reportDir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  reportDir = await mkdtemp(join(tmpdir(), 'vk-proxy-guard-'));
  proxy = await startProxy({ upstream: mock.url, port: 0, reportDir });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
  await rm(reportDir, { recursive: true, force: true });
});

/** GET `target` from `base` with raw headers (fetch may not set Host); status and body. */
function get(
  base: string,
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, path: target, method: 'GET', headers, setHost: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const controlPaths = ['/__mock/state', '/__mock/requests/har', '/__mock/snapshot'];

describe('the proxy guards the mock’s control API as the mock does', () => {
  it.each(controlPaths)(
    '%s with Host: evil.example → 403/10003 through the proxy, as directly',
    async (path) => {
      const direct = await get(mock.url, path, { Host: 'evil.example' });
      expect(direct.status).toBe(403);
      const through = await get(proxy.url, path, { Host: 'evil.example' });
      expect(through.status).toBe(403);
      const envelope = JSON.parse(through.body);
      expect(envelope).toMatchObject({ error_code: 10003, succeed: false, data: null });
      expect(envelope.error_message).toContain('evil.example');
      expect(through.body).not.toContain('"voices"');
    },
  );

  it.each(controlPaths)('%s from a page of another site (Origin) → 403', async (path) => {
    const host = new URL(proxy.url).host;
    const through = await get(proxy.url, path, { Host: host, Origin: 'http://evil.example' });
    expect(through.status).toBe(403);
  });

  it.each([
    '/v1/../__mock/state',
    '//__mock/state',
    '/%5F%5Fmock/state',
    '/__MOCK/state',
    'http://evil.example/__mock/state',
  ])('a spelling of the control path (%s) is judged as the path it names', async (target) => {
    const through = await get(proxy.url, target, { Host: 'evil.example' });
    expect(through.status).toBe(403);
  });

  it.each(controlPaths)(
    '%s through the proxy’s own loopback address still answers (no flag needed)',
    async (path) => {
      for (const host of [new URL(proxy.url).host, `localhost:${proxy.port}`]) {
        const through = await get(proxy.url, path, { Host: host });
        expect(through.status).toBe(200);
      }
      const withOrigin = await get(proxy.url, path, {
        Host: new URL(proxy.url).host,
        Origin: `http://${new URL(proxy.url).host}`,
      });
      expect(withOrigin.status).toBe(200);
    },
  );

  it('leaves the rest of the API alone whatever the Host', async () => {
    const list = await get(proxy.url, '/v1/voice/list', { Host: 'evil.example', 'X-API-Key': 'mock-key' });
    expect(list.status).toBe(200);
  });
});
