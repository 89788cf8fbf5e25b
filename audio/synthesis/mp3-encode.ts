/**
 * MP3 encoding of a stream of 16-bit mono chunks with the pure-JS LAME port (@breezystack/lamejs).
 */

import { Mp3Encoder } from '@breezystack/lamejs';
import { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';

export { MP3_KBPS, mp3SampleRates } from './mp3-frames.js';

/**
 * Encodes PCM chunks as they come; yields MP3 bytes whenever the encoder has whole frames, then the
 * flushed tail. Empty outputs are skipped, so chunk sizes follow the encoder, not the input.
 *
 * @example
 * for (const bytes of mp3Chunks(pcmChunks(), 24000)) socket.write(bytes);
 */
export function* mp3Chunks(
  pcm: Iterable<Int16Array>,
  sampleRate: number,
  kbps = MP3_KBPS,
): Generator<Uint8Array, void, void> {
  if (!mp3SampleRates.includes(sampleRate)) {
    throw new RangeError(`mp3 cannot carry ${sampleRate} Hz; use one of ${mp3SampleRates.join(', ')}`);
  }
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  for (const chunk of pcm) {
    const out = encoder.encodeBuffer(chunk);
    // Copy: the encoder may hand out a view of a buffer it reuses.
    if (out.length > 0) yield new Uint8Array(out);
  }
  const tail = encoder.flush();
  if (tail.length > 0) yield new Uint8Array(tail);
}
