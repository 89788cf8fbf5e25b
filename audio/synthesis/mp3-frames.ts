/**
 * The size of the MP3 the kit's encoder (mp3-encode.ts) makes, counted from the number of samples
 * alone, without lamejs: so that a complete mp3 answer can carry its Content-Length before its first
 * frame is encoded.
 *
 * The encoder is lamejs's `Mp3Encoder`: constant bit rate, bit reservoir off, no Xing/LAME tag, no ID3
 * tag. Every frame then has the same size, `72000 × kbps / rate` bytes (MPEG-2 and 2.5: 576 samples a
 * frame) or `144000 × kbps / rate` (MPEG-1, 32 to 48 kHz: 1152 samples), plus a padding byte on some
 * frames where that is not a whole number (11,025, 22,050 and 44,100 Hz): those rates are not counted
 * here. The number of frames is LAME's: the encoder delay (576 samples) before the first sample, then at
 * the flush zeros up to the end of a frame, a whole frame more when that leaves under 576 samples of
 * padding (lame_encode_flush).
 */

/** Sample rates MPEG-1/2/2.5 Layer III can carry. */
export const mp3SampleRates: readonly number[] = [
  8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000,
];

/** Bit rate of the mock's MP3 output, kbit/s (valid for every rate above). */
export const MP3_KBPS = 64;

/** LAME's encoder delay, samples (ENCDELAY), and the least padding its flush leaves at the end. */
const ENCODER_DELAY = 576;

/**
 * The exact byte length of the MP3 that mp3Chunks() makes of `samples` mono samples at `sampleRate`
 * (at MP3_KBPS); undefined at a rate whose frames are not all the same size.
 *
 * @example
 * mp3ByteLength(24_000, 24_000); // 8448: 44 frames of 192 bytes
 */
export function mp3ByteLength(samples: number, sampleRate: number): number | undefined {
  if (!mp3SampleRates.includes(sampleRate) || !Number.isInteger(samples) || samples < 0) return undefined;
  const mpeg1 = sampleRate >= 32_000;
  const frameSamples = mpeg1 ? 1152 : 576;
  const frameBytes = ((mpeg1 ? 144_000 : 72_000) * MP3_KBPS) / sampleRate;
  if (!Number.isInteger(frameBytes)) return undefined;
  const encoded = ENCODER_DELAY + samples;
  let padding = frameSamples - (encoded % frameSamples);
  if (padding < ENCODER_DELAY) padding += frameSamples;
  return ((encoded + padding) / frameSamples) * frameBytes;
}
