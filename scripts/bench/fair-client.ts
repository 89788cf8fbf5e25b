import { timeStream } from './stream.js';

/**
 * The fair-streaming client, run as its own process by the bench (fairness.ts), so that its reading
 * of the bodies does not share an event loop with the list requests timed meanwhile:
 * `fair-client.ts URL KEY FORMAT COUNT CHARACTERS sequential|concurrent TAG`. Sends COUNT streams of
 * CHARACTERS characters each, one after another or all at once, and prints the wall time and each
 * stream's timing as JSON. Each text differs in its first characters (TAG and its number, same
 * length), so no run reuses what the mock planned for another.
 */
const [url, apiKey, format, count, characters, mode, tag] = process.argv.slice(2);
const base = 'A fair share of the speech, streamed while others stream too, word after word. ';
const length = Number(characters);
const textOf = (i: number) =>
  `${tag} ${i} ${base.repeat(Math.ceil(length / base.length) + 1)}`.slice(0, length);
const once = (i: number) =>
  timeStream(`${url}/v1/text-to-speech/stream`, apiKey as string, {
    generate_text: textOf(i),
    audio_format: format,
  });
const started = performance.now();
const timings = [];
if (mode === 'sequential') for (let i = 0; i < Number(count); i += 1) timings.push(await once(i));
else timings.push(...(await Promise.all(Array.from({ length: Number(count) }, (_, i) => once(i)))));
process.stdout.write(JSON.stringify({ wallMs: performance.now() - started, timings }));
