/**
 * MP3 encoding of a stream of 16-bit mono chunks with the pure-JS LAME port (@breezystack/lamejs).
 */

import { Mp3Encoder } from '@breezystack/lamejs';
import { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';
import type { Mp3Spare, Mp3Spares } from './mp3-spares.js';

export { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';

/** Zero samples a spare is fed at a time until its first frame comes out. */
const silenceStep = 16;

/**
 * Encodes PCM chunks as they come; yields MP3 bytes whenever the encoder has whole frames, then the
 * flushed tail. Empty outputs are skipped, so chunk sizes follow the encoder, not the input.
 *
 * The first chunk is the encoder's first frame, yielded as soon as it exists: with `spares`, a stream
 * that begins with a spare's silence takes that spare and yields the frame it made ahead; else PCM
 * goes in a frame's worth at a time until a frame comes out (~0.3 ms at 24 kHz, where a whole 100 ms
 * chunk took ~0.8 ms). The frames that follow it in its PCM chunk go out with the next chunk. LAME
 * encodes a frame once it holds enough samples, whatever calls they came in, so every byte, and the
 * number of chunks (so the pacing of a stream), are those of a new encoder fed each chunk whole. After
 * each chunk is sent, one spare is made while there is room, so a mock's first mp3 stream fills them.
 *
 * @example
 * for (const bytes of mp3Chunks(pcmChunks(), 24000)) socket.write(bytes);
 */
export function* mp3Chunks(
  pcm: Iterable<Int16Array>,
  sampleRate: number,
  kbps = MP3_KBPS,
  spares?: Mp3Spares,
): Generator<Uint8Array, void, void> {
  if (!mp3SampleRates.includes(sampleRate)) {
    throw new RangeError(`mp3 cannot carry ${sampleRate} Hz; use one of ${mp3SampleRates.join(', ')}`);
  }
  let encoder: Mp3Encoder | undefined;
  const encode = (samples: Int16Array) => (encoder as Mp3Encoder).encodeBuffer(samples);
  // After each chunk is sent, one spare for a later stream, in this stream's turn.
  const restock = () => spares?.restock(sampleRate, kbps, () => spareEncoder(sampleRate, kbps), 1);
  let sounding = false;
  // The frames after the first one in its PCM chunk, sent with the next bytes.
  let held: Uint8Array | undefined;
  for (const chunk of pcm) {
    if (!sounding) {
      const spare = encoder ? undefined : spares?.take(sampleRate, kbps, (n) => startsSilent(chunk, n));
      encoder ??= spare?.encoder ?? new Mp3Encoder(1, sampleRate, kbps);
      const early = spare
        ? { bytes: spare.firstFrame, fed: spare.silence }
        : firstFrame(encode, chunk, sampleRate >= 32_000 ? 1152 : 576);
      if (early.bytes.length === 0) continue;
      sounding = true;
      yield new Uint8Array(early.bytes);
      restock();
      held = new Uint8Array(encode(chunk.subarray(early.fed)));
      continue;
    }
    const out = encode(chunk);
    if (out.length === 0) continue;
    yield joined(held, out);
    restock();
    held = undefined;
  }
  encoder ??= new Mp3Encoder(1, sampleRate, kbps);
  const tail = encoder.flush();
  if (tail.length === 0 && !held?.length) return;
  yield joined(held, tail);
  restock();
}

/**
 * A new encoder fed zero samples until its first frame comes out: what every stream that begins with
 * that much silence would feed it first (mp3-spares.ts).
 *
 * @example
 * spareEncoder(24_000, 64).silence; // 800 samples, 192 bytes of frame
 */
export function spareEncoder(sampleRate: number, kbps = MP3_KBPS): Mp3Spare {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
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

/** `held` then `out`, in a new array of their own (copied: the encoder may reuse the buffer of `out`). */
function joined(held: Uint8Array | undefined, out: Int8Array | Uint8Array): Uint8Array {
  if (!held || held.length === 0) return new Uint8Array(out);
  const bytes = new Uint8Array(held.length + out.length);
  bytes.set(held, 0);
  bytes.set(new Uint8Array(out.buffer, out.byteOffset, out.length), held.length);
  return bytes;
}
