import { request } from 'node:http';
import { type StreamTiming, timeStream } from './stream.js';

/**
 * The fair-streaming client, run as its own process by the bench (fairness.ts), so that its reading
 * of the bodies does not share an event loop with the list requests timed meanwhile:
 * `fair-client.ts URL KEY FORMAT COUNT CHARACTERS sequential|concurrent|aborted TAG`. Sends COUNT
 * streams of CHARACTERS characters each, one after another or all at once, and prints the wall time
 * and each stream's timing as JSON; `aborted`: all at once, each cut as soon as its first bytes came
 * (its timing is then its first byte alone). Each text differs in its first characters (TAG and its number, same
 * length), so no run reuses what the mock planned for another.
 *
 * Before the timed streams, two short ones at once, untimed: this process is new, and its own first
 * requests (Node's HTTP client compiling, its first sockets) would otherwise be counted as the
 * server's first byte.
 */
const [url, apiKey, format, count, characters, mode, tag] = process.argv.slice(2);
const base = 'A fair share of the speech, streamed while others stream too, word after word. ';
const length = Number(characters);
const textOf = (i: number) =>
  `${tag} ${i} ${base.repeat(Math.ceil(length / base.length) + 1)}`.slice(0, length);
const stream = (text: string) =>
  timeStream(`${url}/v1/text-to-speech/stream`, apiKey as string, {
    generate_text: text,
    audio_format: format,
  });
/** One stream cut by the client once its first bytes came: the time to them, and their size. */
const cut = (text: string) =>
  new Promise<StreamTiming>((resolve, reject) => {
    const payload = JSON.stringify({ generate_text: text, audio_format: format });
    const started = performance.now();
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey as string };
    const req = request(`${url}/v1/text-to-speech/stream`, { method: 'POST', agent: false, headers }, (res) =>
      res.once('data', (chunk: Buffer) => {
        const firstByteMs = performance.now() - started;
        resolve({ firstByteMs, totalMs: firstByteMs, bytes: chunk.length, chunked: true });
        req.destroy();
      }),
    );
    req.on('error', reject);
    req.end(payload);
  });
await Promise.all([stream(`${tag} warm one.`), stream(`${tag} warm two.`)]);
const started = performance.now();
const timings: StreamTiming[] = [];
if (mode === 'aborted')
  timings.push(...(await Promise.all(Array.from({ length: Number(count) }, (_, i) => cut(textOf(i))))));
else if (mode === 'sequential')
  for (let i = 0; i < Number(count); i += 1) timings.push(await stream(textOf(i)));
else timings.push(...(await Promise.all(Array.from({ length: Number(count) }, (_, i) => stream(textOf(i))))));
process.stdout.write(JSON.stringify({ wallMs: performance.now() - started, timings }));
