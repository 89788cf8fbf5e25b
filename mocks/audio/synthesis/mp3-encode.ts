/**
 * MP3 encoding of a stream of 16-bit mono chunks with the pure-JS LAME port (@breezystack/lamejs).
 */

import { Mp3Encoder } from '@breezystack/lamejs';

/** Sample rates MPEG-1/2/2.5 Layer III can carry. */
export const mp3SampleRates: readonly number[] = [
  8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000,
];

/** Bit rate of the mock's MP3 output, kbit/s (valid for every rate above). */
export const MP3_KBPS = 64;

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
