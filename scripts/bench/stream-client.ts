import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timeStream } from './stream.js';

/**
 * The stream-latency client, run as its own process by the bench: `stream-client.ts URL KEY WARMUP
 * COUNT [fresh]` with the text on stdin; sends WARMUP untimed streams (JIT, both sides), then prints the
 * timings of COUNT more as JSON. With `fresh`, every request's text differs in its first characters
 * (same length), so the mock can reuse nothing planned for an earlier one. A fresh process, because the bench process
 * has just driven the list section's load: timed from there, the same mock measured ~3× slower to its
 * first byte than from a clean client, which would have been the client's state, not the server's.
 * With WARMUP 0 (a fresh mock's first stream), the client first warms its own HTTP code on a bare
 * server of its own (three chunked streams): its first request was otherwise timed with the client's
 * own first-time costs (~3 ms here), counted as the mock's.
 */
const [url, apiKey, warmUp, count, fresh] = process.argv.slice(2);
let text = '';
for await (const chunk of process.stdin) text += chunk;
let sent = 0;
const once = () => {
  sent += 1;
  const generate_text = fresh ? `${sent} ${text}`.slice(0, text.length) : text;
  return timeStream(`${url}/v1/text-to-speech/stream`, apiKey as string, { generate_text });
};
// Only when no warm-up stream goes to the mock: with its own warm-up before the mock's three (the
// other rows), the same mock's timed streams measured 7.9–11.6 ms instead of 1.4–1.9 in three bench
// runs, for a reason not found; the rows that warm up on the mock need none of their own.
if (Number(warmUp) === 0) await warmOwnSide();
for (let i = 0; i < Number(warmUp); i += 1) await once();
const timings = [];
for (let i = 0; i < Number(count); i += 1) timings.push(await once());
process.stdout.write(JSON.stringify(timings));

/** Three streams from a bare server in this process: the client's HTTP code runs before the mock is timed. */
async function warmOwnSide(): Promise<void> {
  const chunk = Buffer.alloc(4_800);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'audio/wav' });
      for (let i = 0; i < 8; i += 1) res.write(chunk);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  for (let i = 0; i < 3; i += 1)
    await timeStream(`http://127.0.0.1:${port}/`, apiKey as string, { generate_text: text });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
