/**
 * What clients make the mock keep stays bounded (red-team D2, D9), measured in this process after a
 * full GC with generous bounds (`npm run bench -- --only keyless` measures the server's RSS). Loopback
 * only; the old code kept ~250 MB of heap for the first and ~300 MB of buffers for the second.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullGc } from '../../scripts/test/full-gc.js';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

/** JS heap and buffers after two full GCs, MB: what stays reachable. */
function kept(): number {
  const gc = fullGc();
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1e6;
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    serviceOptions: { ...testServiceOptions, validateResponses: false },
  });
});
afterAll(() => server.close());

describe('memory a client with no key can make the mock keep', () => {
  it('8,192 GETs with 15,000-character paths through 64 Hosts keep ≤ 96 MB', async () => {
    const { port } = new URL(server.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const get = (i: number) =>
      new Promise<number>((resolve, reject) => {
        const path = `/${i}-${'p'.repeat(15_000)}`.slice(0, 15_000);
        const headers = { Host: `h${i % 64}.example:${port}` };
        request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    await get(-1);
    const before = kept();
    let next = 0;
    const statuses = new Set<number>();
    const worker = async () => {
      while (next < 8192) statuses.add(await get(next++));
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    expect([...statuses]).toEqual([404]);
    expect(kept() - before).toBeLessThan(96);
  }, 120_000);

  it('forged voice_url refs of 15,000 characters are not kept by the signature memo', async () => {
    const signatures = server.service.state.caches.urlSignatures;
    const sizeBefore = signatures.size;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(
        `${server.url}/__mock/voice-audio/${i}${'r'.repeat(15_000)}?expires=9999999999&signature=00`,
      );
      expect(res.status).toBe(403);
      await res.arrayBuffer();
    }
    expect(signatures.size).toBe(sizeBefore);
  });

  it('300 clients holding 1 MiB − 2 B of an unfinished JSON body keep ≤ 160 MB', async () => {
    const { port } = new URL(server.url);
    const bytes = 1_048_574;
    const start = '{"generate_text":"';
    const body = start + 'a'.repeat(bytes - start.length);
    const head =
      'POST /v1/text-to-speech HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: mock-key\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${bytes + 2}\r\n\r\n`;
    const before = kept();
    const sockets: Socket[] = [];
    try {
      await Promise.all(
        Array.from(
          { length: 300 },
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = connect(Number(port), '127.0.0.1', () =>
                socket.write(head + body, () => resolve()),
              );
              socket.on('error', reject);
              sockets.push(socket);
            }),
        ),
      );
      await sleep(1000);
      expect(kept() - before).toBeLessThan(160);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});
