/**
 * The synthesizer's streams: plan, then lazily rendered chunks with the exact size up front (raw PCM:
 * counted only when asked for, its first chunk needs none). Kept apart
 * from synthesize.ts, which adds the MP3 encoder (lamejs), so that WAV and PCM load no encoder.
 */

import { audioMediaTypes } from '../../openapi/contract.js';
import type { SynthesisRequest, SynthesisStream } from '../types.js';
import { SynthesisCaches } from './caches.js';
import { mp3ByteLength } from './mp3-frames.js';
import { countedSamples, type GrowingPlan, planLazily, planUncounted } from './plan.js';
import { Renderer } from './render.js';
import type { UtterancePlan } from './utterance.js';
import { int16Bytes, wavHeader } from './wav-encode.js';

/** Output sample rate when the request names none, Hz. */
export const DEFAULT_SAMPLE_RATE = 24_000;
/** Audio per streamed chunk when the request names none, ms (`stream-chunking`). */
export const DEFAULT_CHUNK_MS = 100;

/** The request's output rate, checked: an integer from 8 to 192 kHz (default 24 kHz). */
export function sampleRateOf(request: Pick<SynthesisRequest, 'sampleRate'>): number {
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
 * The same chunks from a plan whose size may not be counted yet (`planUncounted`): each chunk is
 * planned before it is rendered, and the one that reaches the plan's end is the shorter last one, so
 * the chunks are those of pcmChunks, byte for byte.
 */
function* plannedChunks(plan: GrowingPlan, chunkSamples: number): Generator<Int16Array, void, void> {
  const renderer = new Renderer(plan);
  for (let at = 0; ; at += chunkSamples) {
    while (plan.planned() < at + chunkSamples && plan.more()) {
      // plan phrases until this chunk is planned, or the utterance has ended
    }
    const left = plan.planned() - at;
    if (left <= 0) return;
    const chunk = new Int16Array(Math.min(chunkSamples, left));
    renderer.render(chunk, 0, chunk.length);
    yield chunk;
  }
}

/**
 * The MP3 encoder of chunks (mp3-encode.ts), handed in so that WAV and PCM never load lamejs; with
 * `pauses`, empty arrays between pieces of a chunk's work (SynthesisStream.chunks).
 */
export type Mp3Encoding = (
  pcm: Iterable<Int16Array>,
  sampleRate: number,
  pauses: boolean,
) => Generator<Uint8Array, void, void>;

/**
 * `synthesize()` of synthesize.ts without the MP3 encoder loaded: the mock's streams of WAV and PCM
 * come from here, so their first request does not wait ~25 ms for lamejs. An mp3 request needs
 * `encodeMp3`. The plan's parse and size are kept in `caches` for the next identical request (in a fresh
 * one, dropped with the stream, when none is passed).
 *
 * @example
 * const stream = synthesizeStream({ text: 'Hi', voice, format: 'wav' }, caches);
 */
export function synthesizeStream(
  request: SynthesisRequest,
  caches: SynthesisCaches = new SynthesisCaches(),
  encodeMp3?: Mp3Encoding,
): SynthesisStream {
  if (request.format === 'mp3' && !encodeMp3) throw new RangeError('mp3 needs the encoder: use synthesize()');
  return streamOf(request, caches, encodeMp3 as Mp3Encoding);
}

/**
 * The stream of a synthesis: its metadata, with a lazy chunk generator. The utterance's size is
 * counted up front (so sizes are exact; for raw PCM when first asked for, see pcmStreamOf); its segments are planned and its audio rendered only as
 * chunks are pulled.
 */
function streamOf(
  request: SynthesisRequest,
  caches: SynthesisCaches,
  encodeMp3: Mp3Encoding,
): SynthesisStream {
  const sampleRate = sampleRateOf(request);
  const chunkMs = request.chunkMs ?? DEFAULT_CHUNK_MS;
  const chunkSamples = Math.max(1, Math.round((sampleRate * chunkMs) / 1000));
  if (request.format === 'pcm') return pcmStreamOf(request, sampleRate, chunkSamples, caches);
  // Planned as the chunks are pulled, so the first chunk of a long text is not kept waiting. A lazy
  // plan is rendered once, so each further call of chunks() plans again (its size from `caches`).
  const plan = planLazily(request, sampleRate, caches);
  let unused: UtterancePlan | undefined = plan;
  const freshPlan = (): UtterancePlan => {
    const next = unused ?? planLazily(request, sampleRate, caches);
    unused = undefined;
    return next;
  };
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
      // Counted from the samples: the encoder's frames all have one size at the mock's 24 kHz.
      byteLength: mp3ByteLength(plan.totalSamples, sampleRate),
      chunks: (options) =>
        encodeMp3(pcmChunks(freshPlan(), chunkSamples), sampleRate, options?.pauses === true),
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
 * Raw PCM: no header, so nothing before the first chunk needs the size. The text is planned as its
 * chunks are pulled, with no counting pass first (`planUncounted`); the size is counted only when
 * asked for (`byteLength`, `durationSeconds`: a complete answer's Content-Length), and kept.
 */
function pcmStreamOf(
  request: SynthesisRequest,
  sampleRate: number,
  chunkSamples: number,
  caches: SynthesisCaches,
): SynthesisStream {
  let samples: number | undefined;
  const total = (): number => {
    samples ??= countedSamples(request, sampleRate, caches);
    return samples;
  };
  return {
    format: 'pcm',
    mediaType: audioMediaTypes.pcm,
    sampleRate,
    channels: 1,
    bitDepth: 16,
    get durationSeconds() {
      return total() / sampleRate;
    },
    get byteLength() {
      return total() * 2;
    },
    *chunks() {
      for (const samples of plannedChunks(planUncounted(request, sampleRate, caches), chunkSamples))
        yield int16Bytes(samples);
    },
  };
}
