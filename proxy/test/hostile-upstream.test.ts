/**
 * Upstreams that answer what Node's own server could never send: a status line it refuses to write
 * (000, 099, a reason phrase with a control character), a 101 Switching Protocols, a close with no
 * answer at all. Each gives the client the proxy's 502 envelope, counts as an upstream error, and
 * leaves the proxy serving and able to write its reports. Raw answers come from node:net servers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProxyServer, startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';

/** The raw bytes each path is answered with (after the request head); `null`: close without a byte. */
const answers: Record<string, string | null> = {
  '/status-000': 'HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n',
  '/status-099': 'HTTP/1.1 099 Early\r\nContent-Length: 0\r\n\r\n',
  '/reason-del': 'HTTP/1.1 200 O\x7fK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
  '/switching': 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  '/switching-bare': 'HTTP/1.1 101 Switching Protocols\r\n\r\n',
  '/silent-close': null,
  '/v1/voice/list': `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${listBody().length}\r\n\r\n${listBody()}`,
};

function listBody(): string {
  return JSON.stringify({
    error_code: 0,
    error_message: '',
    succeed: true,
    data: { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 },
  });
}

const hostile = [
  '/status-000',
  '/status-099',
  '/reason-del',
  '/switching',
  '/switching-bare',
  '/silent-close',
];

let raw: Server;
let upstream: string;
const sockets = new Set<Socket>();
let proxy: ProxyServer;
let dir: string;

// The raw upstream answers each path the same way whatever came before; each test has a proxy (and a
// report folder) of its own, so that its counts start at zero whatever ran before it.
beforeAll(async () => {
  raw = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    socket.on('data', (c: Buffer) => {
      head += c.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = /^\w+ (\S+)/.exec(head)?.[1] ?? '';
      const answer = answers[path];
      if (answer === null || answer === undefined) socket.destroy();
      else socket.write(answer); // and keep the socket open: a 101 leaves it to the protocol switched to
      head = '';
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  upstream = `http://127.0.0.1:${(raw.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => raw.close(() => resolve()));
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-proxy-hostile-'));
  proxy = await startProxy({ upstream, port: 0, reportDir: join(dir, 'reports'), upstreamTimeoutMs: 20_000 });
});
afterEach(async () => {
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

/** One request through the proxy, answered within 5 s (a hang fails the test, not the suite). */
async function through(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${proxy.url}${path}`, {
    headers: { 'x-api-key': 'k' },
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, body: await res.text() };
}

describe('a hostile upstream answer', () => {
  it.each(hostile)('%s gives the client a 502 envelope and counts as an upstream error', async (path) => {
    const { status, body } = await through(path);
    expect(status).toBe(502);
    expect(JSON.parse(body)).toMatchObject({ error_code: 10000, succeed: false, data: null });
    await expect.poll(() => proxy.report().counts.upstreamErrors).toBe(1);
    const exchange = proxy.report().exchanges.at(-1);
    expect(exchange).toMatchObject({ path, aborted: 'upstream-unreachable', violations: 0 });
    expect(exchange?.upstreamError).toBeTruthy();
  });

  it('leaves the proxy serving, and its reports are written at the end', async () => {
    for (const path of hostile) expect((await through(path)).status).toBe(502);
    expect((await through('/v1/voice/list')).status).toBe(200);
    const { report, files } = await proxy.close();
    expect(report.counts).toMatchObject({ upstreamErrors: 6, violations: 0 });
    expect(files.map((f) => f.slice(dir.length))).toEqual([
      '/reports/proxy.json',
      '/reports/proxy.junit.xml',
      '/reports/proxy.md',
    ]);
    const written = JSON.parse(await readFile(join(dir, 'reports', 'proxy.json'), 'utf8')) as ProxyReport;
    expect(written.counts.exchanges).toBe(7);
  });
});
