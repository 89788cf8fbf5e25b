import { timeStream } from './stream.js';

/**
 * The stream-latency client, run as its own process by the bench: `stream-client.ts URL KEY WARMUP
 * COUNT` with the text on stdin; sends WARMUP untimed streams (JIT, both sides), then prints the
 * timings of COUNT more as JSON. A fresh process, because the bench process
 * has just driven the list section's load: timed from there, the same mock measured ~3× slower to its
 * first byte than from a clean client, which would have been the client's state, not the server's.
 */
const [url, apiKey, warmUp, count] = process.argv.slice(2);
let text = '';
for await (const chunk of process.stdin) text += chunk;
const once = () => timeStream(`${url}/v1/text-to-speech/stream`, apiKey as string, { generate_text: text });
for (let i = 0; i < Number(warmUp); i += 1) await once();
const timings = [];
for (let i = 0; i < Number(count); i += 1) timings.push(await once());
process.stdout.write(JSON.stringify(timings));
