// The built mock in a process the bench can ask for a full GC and its memory (over IPC): `node
// --expose-gc scripts/bench/gc-mock.mjs <port> [dist dir]`. Memory that stays after a GC is what a
// client made the mock keep; memory before it is only garbage not yet collected.
import { pathToFileURL } from 'node:url';

const [port, dist = new URL('../../dist/', import.meta.url).pathname] = process.argv.slice(2);
const { startMockServer } = await import(pathToFileURL(`${dist}/mocks/node/server.js`).href);
const server = await startMockServer({ port: Number(port), host: '127.0.0.1' });
process.on('message', (message) => {
  if (message === 'gc') {
    // Twice: the first pass may only queue weak-referenced objects the second frees.
    globalThis.gc?.();
    globalThis.gc?.();
  }
  if (message === 'gc' || message === 'memory') {
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ rss, heapUsed, heapTotal, external, arrayBuffers });
  }
  if (message === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ listening: server.url });
