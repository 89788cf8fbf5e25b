/**
 * The in-flight load itself (held-bodies.ts, used by the budget test and `npm run bench`): an exchange
 * reset on its way is one outcome of the run, never a rejection that ends the run (or the bench
 * process), and the upstream does not wait for it. A TCP relay stands in for the proxy and resets one
 * chosen exchange.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { heldLoad } from './held-bodies.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** A relay to `upstream` that resets the `nth` connection (from 1) once its request head is in. */
async function resettingRelay(upstream: string, nth: number): Promise<string> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    const reset = ++accepted === nth;
    sockets.add(client);
    client.on('error', () => undefined);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const text = head.toString('latin1');
      if (!text.includes('\r\n\r\n')) return;
      client.off('data', onData);
      if (reset) {
        client.resetAndDestroy();
        return;
      }
      const up = connect(Number(target.port), target.hostname);
      sockets.add(up);
      up.on('error', () => client.destroy());
      up.write(head);
      client.pipe(up).pipe(client);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the in-flight load', () => {
  it.each(['request', 'answer'] as const)(
    'counts a client reset as an outcome (%s side), and the others are still answered',
    async (side) => {
      const load = await heldLoad(5, 64 * 1024, side);
      open.push(load);
      const relay = await resettingRelay(load.url, 3);
      const outcomes = await load.run(relay, undefined, 20_000);
      const answered = side === 'request' ? 400 : 200;
      expect(outcomes.map(String).sort()).toEqual([...Array(4).fill(String(answered)), 'ECONNRESET']);
    },
    30_000,
  );
});
