/**
 * MPEG audio frame headers: Layer III (MP3) frames and ADTS (raw AAC) frames, which share the first 12
 * sync bits. A frame is believed only when a second one starts where it ends.
 */

const mpeg1Layer3Kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const mpeg2Layer3Kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const mpegRates: Record<number, readonly number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** One MPEG audio Layer III frame header. */
export interface MpegFrame {
  readonly length: number;
  /** Version, layer and sample-rate bits: equal in every frame of one stream. */
  readonly key: number;
  readonly samples: number;
  readonly sampleRate: number;
}

/** The MPEG audio Layer III frame header at `at`, or null when there is none. */
export function mpegFrameAt(bytes: Uint8Array, at: number): MpegFrame | null {
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rate = mpegRates[version]?.[(b2 >> 2) & 3];
  // Layer bits 01 are Layer III; 00 would be ADTS AAC, which shares the first 12 sync bits.
  if (layer !== 1 || rate === undefined || bitrateIndex === 0 || bitrateIndex === 15) return null;
  const kbps = (version === 3 ? mpeg1Layer3Kbps : mpeg2Layer3Kbps)[bitrateIndex] ?? 0;
  const length = Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
  return { length, key: (b1 << 8) | (b2 & 0x0c), samples: version === 3 ? 1152 : 576, sampleRate: rate };
}

/** The length of the ADTS (raw AAC) frame at `at`, or 0 when there is none. */
export function adtsFrameLength(bytes: Uint8Array, at: number): number {
  const b1 = bytes[at + 1] ?? 0;
  // 12 sync bits, then the MPEG-4/2 id bit, then layer bits that are always 00 in ADTS.
  if (bytes[at] !== 0xff || (b1 & 0xf6) !== 0xf0) return 0;
  if ((((bytes[at + 2] ?? 0) >> 2) & 0xf) > 12) return 0;
  return (((bytes[at + 3] ?? 0) & 3) << 11) | ((bytes[at + 4] ?? 0) << 3) | ((bytes[at + 5] ?? 0) >> 5);
}

/** A lone sync word is common in random bytes; a second frame where the first one ends is not. */
export function chainsMpeg(bytes: Uint8Array, at: number, frame: MpegFrame): boolean {
  const next = at + frame.length;
  if (next === bytes.length) return true;
  return mpegFrameAt(bytes, next)?.key === frame.key;
}

/** A second ADTS frame where the first one ends, or the end of the file. */
export function chainsAdts(bytes: Uint8Array, at: number, length: number): boolean {
  const next = at + length;
  return next === bytes.length || adtsFrameLength(bytes, next) >= 7;
}
