/**
 * Measures how much memory the Node mock server needs for oversized uploads (run by hand, not a test:
 * `node --import tsx mocks/test/measure-upload-memory.ts [megabytes...]`). Each body is streamed from
 * one reused 1 MiB block, so the growth printed is the server's.
 */
import { request } from 'node:http';
import { startMockServer } from '../node/server.js';

const boundary = 'measureboundary';

async function upload(url: string, bytes: number): Promise<{ status: number; body: string }> {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="scene"\r\n\r\naudio\r\n--${boundary}\r\n` +
      'Content-Disposition: form-data; name="file"; filename="huge.wav"\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = Buffer.alloc(1_048_576, 1);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/v1/files/upload`,
      {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        if (!req.write(n === block.length ? block : block.subarray(0, n)))
          return void req.once('drain', pump);
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
}

const sizes = process.argv.slice(2).map(Number);
const server = await startMockServer({ port: 0 });
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
for (const megabytes of sizes.length > 0 ? sizes : [200, 1000]) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  peak = before;
  const started = performance.now();
  const { status, body } = await upload(server.url, megabytes * 1_048_576);
  const seconds = (performance.now() - started) / 1000;
  const growth = (peak - before) / 1_048_576;
  console.log(
    `${megabytes} MiB body → HTTP ${status} ${JSON.parse(body).error_code}; RSS growth ${growth.toFixed(1)} MiB; ${seconds.toFixed(1)} s`,
  );
}
clearInterval(sampler);
await server.close();
