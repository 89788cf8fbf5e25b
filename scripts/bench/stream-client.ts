import { timeStream } from './stream.js';

/**
 * The stream-latency client, run as its own process by the bench: `stream-client.ts URL KEY WARMUP
 * COUNT [fresh]` with the text on stdin; sends WARMUP untimed streams (JIT, both sides), then prints the
 * timings of COUNT more as JSON. With `fresh`, every request's text differs in its first characters
 * (same length), so the mock can reuse nothing planned for an earlier one. A fresh process, because the bench process
 * has just driven the list section's load: timed from there, the same mock measured ~3× slower to its
 * first byte than from a clean client, which would have been the client's state, not the server's.
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
for (let i = 0; i < Number(warmUp); i += 1) await once();
const timings = [];
for (let i = 0; i < Number(count); i += 1) timings.push(await once());
process.stdout.write(JSON.stringify(timings));
