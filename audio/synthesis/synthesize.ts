/**
 * The fake-voice synthesizer (this folder): text + voice → speech-like audio in a made-up language,
 * deterministic to the byte, streamable chunk by chunk. The path of a request: text.ts parses it into
 * the vocabulary of vocabulary.ts (syllables.ts, text-marks.ts, text-letters.ts), plan.ts and
 * plan-phrase.ts turn it into a segment timeline (segment-builder.ts, prosody.ts, voices.ts, rng.ts),
 * render.ts and source-filter.ts play it as 16-bit samples, and stream.ts, wav-encode.ts and
 * mp3-encode.ts package them. What may be reused between requests lives in a SynthesisCaches
 * (caches.ts) that the caller owns and passes in, primed MP3 encoders (mp3-primed.ts) among it.
 *
 * Imports ../types.ts, the contract's media types and lamejs (mp3-encode.ts); never ../analysis/ or
 * ../containers/.
 */

import type { SynthesisRequest, SynthesisStream } from '../types.js';
import type { SynthesisCaches } from './caches.js';
import { MP3_KBPS, mp3Chunks } from './mp3-encode.js';
import { planUtterance } from './plan.js';
import { Renderer } from './render.js';
import { sampleRateOf, synthesizeStream } from './stream.js';
import { int16Bytes, WAV_HEADER_BYTES, wavHeader } from './wav-encode.js';

export { effectiveRate } from './plan.js';
export { DEFAULT_CHUNK_MS, DEFAULT_SAMPLE_RATE } from './stream.js';

/**
 * Plans a synthesis and returns its metadata with a lazy chunk generator. The utterance's size is
 * counted up front (so sizes are exact; raw PCM counts it when `byteLength` or `durationSeconds` is
 * first read, as its chunks need none); its segments are planned and its audio rendered only as
 * chunks are pulled. With `caches`, what an identical later request can reuse (the parse, the size) is
 * kept there; without, nothing is kept after the stream is dropped.
 *
 * @example
 * const stream = synthesize({ text: 'Hello there!', voice: systemVoices[0], format: 'wav' }, caches);
 * for (const chunk of stream.chunks()) response.write(chunk); // header first, then 100 ms per chunk
 */
export function synthesize(request: SynthesisRequest, caches?: SynthesisCaches): SynthesisStream {
  // With `caches`, its primed encoders: a stream's first frame does not wait for its encoder to be made.
  return synthesizeStream(request, caches, (pcm, rate, pauses) =>
    mp3Chunks(pcm, rate, MP3_KBPS, caches?.primedMp3Encoders, pauses),
  );
}

/**
 * The complete result of a synthesis in one buffer: exactly the concatenation of `synthesize().chunks()`
 * for wav and pcm.
 *
 * @example
 * const wav = synthesizeToBytes({ text: 'Hi', voice, format: 'wav' }); // RIFF....WAVE...
 */
export function synthesizeToBytes(request: SynthesisRequest, caches?: SynthesisCaches): Uint8Array {
  if (request.format === 'mp3') return concat([...synthesize(request, caches).chunks()]);
  // Render wav/pcm in one pass straight into the output buffer (no chunk copies).
  const sampleRate = sampleRateOf(request);
  const plan = planUtterance(request, sampleRate, caches);
  const offset = request.format === 'wav' ? WAV_HEADER_BYTES : 0;
  const out = new Uint8Array(offset + plan.totalSamples * 2);
  if (offset > 0) out.set(wavHeader(plan.totalSamples * 2, { sampleRate, channels: 1, bitDepth: 16 }), 0);
  const samples = new Int16Array(plan.totalSamples);
  new Renderer(plan).render(samples, 0, samples.length);
  out.set(int16Bytes(samples), offset);
  return out;
}

/** Renders a request to mono 16-bit samples (for fixtures and tests that need samples, not bytes). */
export function synthesizeSamples(
  request: Omit<SynthesisRequest, 'format'>,
  caches?: SynthesisCaches,
): {
  samples: Int16Array;
  sampleRate: number;
} {
  const sampleRate = sampleRateOf(request);
  const plan = planUtterance({ ...request, format: 'pcm' }, sampleRate, caches);
  const samples = new Int16Array(plan.totalSamples);
  new Renderer(plan).render(samples, 0, samples.length);
  return { samples, sampleRate };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
