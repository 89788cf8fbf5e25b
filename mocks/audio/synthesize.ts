/**
 * The fake-voice synthesizer: text + voice → speech-like audio in a made-up language, deterministic to
 * the byte, streamable chunk by chunk.
 */

import { audioMediaTypes } from '../../openapi/contract.js';
import { mp3Chunks } from './mp3.js';
import { planLazily, planUtterance, type UtterancePlan } from './synthesize-plan.js';
import { Renderer } from './synthesize-render.js';
import type { SynthesisRequest, SynthesisStream } from './types.js';
import { int16Bytes, WAV_HEADER_BYTES, wavHeader } from './wav-encode.js';

export { effectiveRate } from './synthesize-plan.js';

/** Output sample rate when the request names none, Hz. */
export const DEFAULT_SAMPLE_RATE = 24_000;
/** Audio per streamed chunk when the request names none, ms (`stream-chunking`). */
export const DEFAULT_CHUNK_MS = 100;

function sampleRateOf(request: Pick<SynthesisRequest, 'sampleRate'>): number {
  const sampleRate = request.sampleRate ?? DEFAULT_SAMPLE_RATE;
  if (!Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > 192_000) {
    throw new RangeError(`sampleRate must be an integer from 8000 to 192000 Hz, got ${sampleRate}`);
  }
  return sampleRate;
}

/** Lazily rendered 16-bit chunks of `chunkSamples` samples each (the last one shorter). */
function* pcmChunks(plan: UtterancePlan, chunkSamples: number): Generator<Int16Array, void, void> {
  const renderer = new Renderer(plan);
  for (let at = 0; at < plan.totalSamples; at += chunkSamples) {
    const chunk = new Int16Array(Math.min(chunkSamples, plan.totalSamples - at));
    renderer.render(chunk, 0, chunk.length);
    yield chunk;
  }
}

/**
 * Plans a synthesis and returns its metadata with a lazy chunk generator. The utterance's size is
 * counted up front (so sizes are exact); its segments are planned and its audio rendered only as
 * chunks are pulled.
 *
 * @example
 * const stream = synthesize({ text: 'Hello there!', voice: systemVoices[0], format: 'wav' });
 * for (const chunk of stream.chunks()) response.write(chunk); // header first, then 100 ms per chunk
 */
export function synthesize(request: SynthesisRequest): SynthesisStream {
  const sampleRate = sampleRateOf(request);
  // Planned as the chunks are pulled, so the first chunk of a long text is not kept waiting. A lazy
  // plan is rendered once, so each further call of chunks() plans again.
  const plan = planLazily(request, sampleRate);
  let unused: UtterancePlan | undefined = plan;
  const freshPlan = (): UtterancePlan => {
    const next = unused ?? planLazily(request, sampleRate);
    unused = undefined;
    return next;
  };
  const chunkMs = request.chunkMs ?? DEFAULT_CHUNK_MS;
  const chunkSamples = Math.max(1, Math.round((sampleRate * chunkMs) / 1000));
  const dataBytes = plan.totalSamples * 2;
  const format = request.format;
  const common = {
    format,
    mediaType: audioMediaTypes[format],
    sampleRate,
    channels: 1,
    bitDepth: 16,
    durationSeconds: plan.totalSamples / sampleRate,
  };
  if (format === 'mp3') {
    return {
      ...common,
      byteLength: undefined,
      chunks: () => mp3Chunks(pcmChunks(freshPlan(), chunkSamples), sampleRate),
    };
  }
  const header =
    format === 'wav' ? wavHeader(dataBytes, { sampleRate, channels: 1, bitDepth: 16 }) : undefined;
  return {
    ...common,
    byteLength: dataBytes + (header?.length ?? 0),
    *chunks() {
      let first = header;
      for (const samples of pcmChunks(freshPlan(), chunkSamples)) {
        const bytes = int16Bytes(samples);
        if (!first) {
          yield bytes;
          continue;
        }
        // The header travels with the first audio so that every chunk carries sound.
        const joined = new Uint8Array(first.length + bytes.length);
        joined.set(first, 0);
        joined.set(bytes, first.length);
        first = undefined;
        yield joined;
      }
      if (first) yield first;
    },
  };
}

/**
 * The complete result of a synthesis in one buffer: exactly the concatenation of `synthesize().chunks()`
 * for wav and pcm.
 *
 * @example
 * const wav = synthesizeToBytes({ text: 'Hi', voice, format: 'wav' }); // RIFF....WAVE...
 */
export function synthesizeToBytes(request: SynthesisRequest): Uint8Array {
  if (request.format === 'mp3') return concat([...synthesize(request).chunks()]);
  // Render wav/pcm in one pass straight into the output buffer (no chunk copies).
  const sampleRate = sampleRateOf(request);
  const plan = planUtterance(request, sampleRate);
  const offset = request.format === 'wav' ? WAV_HEADER_BYTES : 0;
  const out = new Uint8Array(offset + plan.totalSamples * 2);
  if (offset > 0) out.set(wavHeader(plan.totalSamples * 2, { sampleRate, channels: 1, bitDepth: 16 }), 0);
  const samples = new Int16Array(plan.totalSamples);
  new Renderer(plan).render(samples, 0, samples.length);
  out.set(int16Bytes(samples), offset);
  return out;
}

/** Renders a request to mono 16-bit samples (for fixtures and tests that need samples, not bytes). */
export function synthesizeSamples(request: Omit<SynthesisRequest, 'format'>): {
  samples: Int16Array;
  sampleRate: number;
} {
  const sampleRate = sampleRateOf(request);
  const plan = planUtterance({ ...request, format: 'pcm' }, sampleRate);
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
