import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, root } from './servers.js';

/** Memory of the mock process, bytes, as process.memoryUsage() gives it. */
interface Memory {
  rss: number;
  heapUsed: number;
}

/** The built mock in a child that collects its garbage when asked (scripts/bench/gc-mock.mjs). */
export interface GcMock {
  readonly url: string;
  /** Memory after two full GCs: what the mock keeps. */
  collected(): Promise<Memory>;
  stop(): Promise<void>;
}

const reply = (child: ChildProcess) =>
  new Promise<Record<string, unknown>>((resolve) => child.once('message', (m) => resolve(m as never)));

/** Spawns the built mock (`dist/`, or the `dist` given: an older build to compare) with --expose-gc. */
export async function spawnGcMock(dist = `${root}dist`): Promise<GcMock> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--expose-gc', 'scripts/bench/gc-mock.mjs', String(port), dist], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await reply(child);
  return {
    url: String(ready.listening),
    async collected() {
      const answer = reply(child);
      child.send('gc');
      return (await answer) as unknown as Memory;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What a section measured: statuses seen and the mock's memory after GC, before and after, MB (10^6 bytes). */
export interface KeptMemory {
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly rssBeforeMB: number;
  readonly rssGrowthMB: number;
  readonly heapGrowthMB: number;
}

const mb = (bytes: number) => bytes / 1e6;

/**
 * `requests` GETs with no key, each a distinct path of `pathChars` characters, through `hosts` Host
 * values (all 404s): the mock's RSS and heap growth after a full GC once they are answered (red-team
 * D2: per-origin URL memos kept ~1 GB of them).
 */
export async function keylessMemory(
  requests = 8192,
  hosts = 64,
  pathChars = 15_000,
  dist?: string,
): Promise<KeptMemory> {
  const mock = await spawnGcMock(dist);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const { port } = new URL(mock.url);
    const get = (i: number) =>
      new Promise<number>((resolve, reject) => {
        const path = `/${i}-${'p'.repeat(pathChars)}`.slice(0, pathChars);
        const headers = { Host: `h${i % hosts}.example:${port}` };
        const sent = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        });
        sent.on('error', reject);
        sent.end();
      });
    await get(-1);
    const before = await mock.collected();
    const statuses: Record<string, number> = {};
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        const status = await get(next++);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const after = await mock.collected();
    return {
      requests,
      statuses,
      rssBeforeMB: mb(before.rss),
      rssGrowthMB: mb(after.rss - before.rss),
      heapGrowthMB: mb(after.heapUsed - before.heapUsed),
    };
  } finally {
    agent.destroy();
    await mock.stop();
  }
}

/**
 * `clients` connections that each send `bytes` of a JSON synthesis body declared 2 bytes longer, and
 * hold it unfinished (red-team D9): the mock's RSS and heap growth after a full GC while they hold.
 */
export async function heldBodiesMemory(
  clients = 300,
  bytes = 1_048_574,
  holdMs = 3000,
  dist?: string,
): Promise<KeptMemory & { readonly answeredWhileHeld: number }> {
  const mock = await spawnGcMock(dist);
  const sockets: Socket[] = [];
  try {
    const { port } = new URL(mock.url);
    const before = await mock.collected();
    const statuses: Record<string, number> = {};
    const start = '{"generate_text":"';
    const body = start + 'a'.repeat(bytes - start.length);
    const head =
      'POST /v1/text-to-speech HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: mock-key\r\n' +
      `Content-Type: application/json\r\nContent-Length: ${bytes + 2}\r\n\r\n`;
    await Promise.all(
      Array.from(
        { length: clients },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(Number(port), '127.0.0.1', () =>
              socket.write(head + body, () => resolve()),
            );
            socket.setEncoding('latin1');
            socket.once('data', (text: string) => {
              const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 'other';
              statuses[status] = (statuses[status] ?? 0) + 1;
            });
            socket.on('error', reject);
            sockets.push(socket);
          }),
      ),
    );
    await sleep(holdMs);
    const held = await mock.collected();
    return {
      requests: clients,
      statuses,
      answeredWhileHeld: Object.values(statuses).reduce((a, b) => a + b, 0),
      rssBeforeMB: mb(before.rss),
      rssGrowthMB: mb(held.rss - before.rss),
      heapGrowthMB: mb(held.heapUsed - before.heapUsed),
    };
  } finally {
    for (const socket of sockets) socket.destroy();
    await mock.stop();
  }
}
