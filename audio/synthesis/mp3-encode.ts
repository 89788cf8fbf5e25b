/**
 * MP3 encoding of a stream of 16-bit mono chunks with the pure-JS LAME port (@breezystack/lamejs).
 */

import { Mp3Encoder } from '@breezystack/lamejs';
import { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';
import type { PrimedMp3Encoder, PrimedMp3Encoders } from './mp3-primed.js';

export { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';

/** Zero samples a primed encoder is fed at a time until its first frame comes out. */
const silenceStep = 16;

/**
 * Samples fed to the encoder at a time between pauses: one granule (half an MPEG-1 frame, a whole
 * MPEG-2 one), ~1 ms of work at 24 kHz. LAME encodes whole granules, so fewer would not split it finer.
 */
const pieceSamples = 576;

/**
 * What `mp3Chunks` yields between two pieces of one chunk's work when asked for pauses: an empty
 * array, never a chunk. Whoever asked for pauses gives the event loop a chance there (fair-turns.ts).
 */
export const MP3_PAUSE: Uint8Array = new Uint8Array(0);

/**
 * Encodes PCM chunks as they come; yields MP3 bytes whenever the encoder has whole frames, then the
 * flushed tail. Empty outputs are skipped, so chunk sizes follow the encoder, not the input.
 *
 * The first chunk is the encoder's first frame, yielded as soon as it exists: with `primedEncoders`, a stream
 * that begins with a primed encoder's silence takes that primed encoder and yields the frame it made ahead; else PCM
 * goes in a frame's worth at a time until a frame comes out (~0.3 ms at 24 kHz, where a whole 100 ms
 * chunk took ~0.8 ms). The frames that follow it in its PCM chunk go out with the next chunk. LAME
 * encodes a frame once it holds enough samples, whatever calls they came in, so every byte, and the
 * number of chunks (so the pacing of a stream), are those of a new encoder fed each chunk whole. After
 * each chunk is sent, one primed encoder is made while there is room, so a mock's first mp3 stream fills them.
 *
 * With `pauses`, a chunk's work (its PCM, its primed encoder, its flush) is done in pieces of ~1 ms, with an
 * empty array (`MP3_PAUSE`) yielded between two pieces: a 100 ms chunk costs ~4–5 ms of lamejs, and a
 * stream taking fair turns (mocks/core/answer/synthesis-body.ts) may then let others go on in the
 * middle of it instead of holding the event loop that long. The pieces' bytes are joined and the chunk
 * is yielded where it would be without pauses: the same bytes, the same chunks.
 *
 * @example
 * for (const bytes of mp3Chunks(pcmChunks(), 24000)) socket.write(bytes);
 */
export function* mp3Chunks(
  pcm: Iterable<Int16Array>,
  sampleRate: number,
  kbps = MP3_KBPS,
  primedEncoders?: PrimedMp3Encoders,
  pauses = false,
): Generator<Uint8Array, void, void> {
  if (!mp3SampleRates.includes(sampleRate)) {
    throw new RangeError(`mp3 cannot carry ${sampleRate} Hz; use one of ${mp3SampleRates.join(', ')}`);
  }
  let encoder: Mp3Encoder | undefined;
  // A chunk's PCM, whole or in pieces with pauses between them: the bytes it made.
  const encode = (samples: Int16Array) =>
    encodePieces(encoder as Mp3Encoder, samples, pauses ? pieceSamples : samples.length);
  // After each chunk is sent, one primed encoder for a later stream, in this stream's turn: with pauses, one
  // after the encoder is built (~1 ms) and one after it is fed its silence (~0.3–0.8 ms).
  function* restock(): Generator<Uint8Array, void, void> {
    if (!primedEncoders?.hasRoom(sampleRate, kbps)) return;
    const primed = new Mp3Encoder(1, sampleRate, kbps);
    if (pauses) yield MP3_PAUSE;
    primedEncoders.restock(sampleRate, kbps, () => silenced(primed), 1);
    if (pauses) yield MP3_PAUSE;
  }
  let started = false;
  // The frames after the first one in its PCM chunk, sent with the next bytes.
  let held: Uint8Array | undefined;
  for (const chunk of pcm) {
    if (!started) {
      const primed = encoder
        ? undefined
        : primedEncoders?.take(sampleRate, kbps, (n) => startsSilent(chunk, n));
      encoder ??= primed?.encoder ?? new Mp3Encoder(1, sampleRate, kbps);
      const early = primed
        ? { bytes: primed.firstFrame, fed: primed.silence }
        : firstFrame(
            (samples) => (encoder as Mp3Encoder).encodeBuffer(samples),
            chunk,
            sampleRate >= 32_000 ? 1152 : 576,
          );
      if (early.bytes.length === 0) continue;
      started = true;
      yield new Uint8Array(early.bytes);
      yield* restock();
      held = joined(undefined, yield* encode(chunk.subarray(early.fed)));
      continue;
    }
    const out = yield* encode(chunk);
    if (out.length === 0) continue;
    yield joined(held, out);
    yield* restock();
    held = undefined;
  }
  encoder ??= new Mp3Encoder(1, sampleRate, kbps);
  if (pauses && started) yield MP3_PAUSE;
  const tail = encoder.flush();
  if (tail.length === 0 && !held?.length) return;
  yield joined(held, [tail]);
  yield* restock();
}

/**
 * Feeds `samples` to `encoder` `step` at a time, a pause (`MP3_PAUSE`) between two pieces when the
 * step is shorter than the chunk: the bytes that came out, none when no frame did.
 */
function* encodePieces(
  encoder: Mp3Encoder,
  samples: Int16Array,
  step: number,
): Generator<Uint8Array, (Int8Array | Uint8Array)[], void> {
  const parts: (Int8Array | Uint8Array)[] = [];
  for (let at = 0; at < samples.length; at += step) {
    if (at > 0) yield MP3_PAUSE;
    const bytes = encoder.encodeBuffer(samples.subarray(at, at + step));
    if (bytes.length > 0) parts.push(bytes);
  }
  return parts;
}

/**
 * A new encoder fed zero samples until its first frame comes out: what every stream that begins with
 * that much silence would feed it first (mp3-primed.ts).
 *
 * @example
 * primedEncoder(24_000, 64).silence; // 800 samples, 192 bytes of frame
 */
export function primedEncoder(sampleRate: number, kbps = MP3_KBPS): PrimedMp3Encoder {
  return silenced(new Mp3Encoder(1, sampleRate, kbps));
}

/** A new `encoder` fed zero samples until its first frame comes out (primedEncoder). */
function silenced(encoder: Mp3Encoder): PrimedMp3Encoder {
  const zeros = new Int16Array(silenceStep);
  for (let silence = silenceStep; ; silence += silenceStep) {
    const frame = encoder.encodeBuffer(zeros);
    if (frame.length > 0) return { encoder, silence, firstFrame: new Uint8Array(frame) };
  }
}

/** Whether the first `count` samples of `chunk` are there and all zero. */
function startsSilent(chunk: Int16Array, count: number): boolean {
  if (chunk.length < count) return false;
  for (let i = 0; i < count; i++) if (chunk[i] !== 0) return false;
  return true;
}

/**
 * Feeds `chunk` a frame (`step` samples) at a time until the encoder gives bytes: the first frame,
 * and how many samples went in. No bytes means the whole chunk went in without a frame coming out.
 */
function firstFrame(
  encode: (samples: Int16Array) => Int8Array | Uint8Array,
  chunk: Int16Array,
  step: number,
): { bytes: Int8Array | Uint8Array; fed: number } {
  for (let fed = 0; fed < chunk.length; ) {
    const next = Math.min(chunk.length, fed + step);
    const bytes = encode(chunk.subarray(fed, next));
    fed = next;
    if (bytes.length > 0) return { bytes, fed };
  }
  return { bytes: new Uint8Array(0), fed: chunk.length };
}

/** `held` then `parts`, in a new array of their own (copied: the encoder may reuse its buffer). */
function joined(held: Uint8Array | undefined, parts: readonly (Int8Array | Uint8Array)[]): Uint8Array {
  let length = held?.length ?? 0;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(length);
  let at = 0;
  if (held) {
    bytes.set(held, 0);
    at = held.length;
  }
  for (const part of parts) {
    bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.length), at);
    at += part.length;
  }
  return bytes;
}
