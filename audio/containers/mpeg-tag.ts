import { readAscii, readUintBE } from './bytes.js';
import { mpegFrameAt } from './mpeg-frame.js';

/** What the first frame of an MP3 says about the stream when it is a Xing/Info or VBRI header frame. */
export interface MpegTag {
  /** Audio frames the encoder wrote, this header frame excluded; undefined when the tag omits it. */
  readonly frames: number | undefined;
  /** Samples of encoder priming at the start (LAME tag); 0 without a LAME tag. */
  readonly delay: number;
  /** Samples of padding after the end of the audio in the last frame (LAME tag); 0 without one. */
  readonly padding: number;
  readonly samplesPerFrame: number;
  readonly sampleRate: number;
}

/** A frame count of 0 says nothing (ffmpeg ignores it too). */
const count = (value: number): number | undefined => (value > 0 ? value : undefined);

/**
 * Encoders whose Info tag carries the LAME extension with the delay and padding: the ones ffmpeg trusts
 * (mp3dec.c), LAME itself and ffmpeg's own muxer ("Lavf"/"Lavc").
 */
const lameEncoders = new Set(['LAME', 'Lavf', 'Lavc']);

/** Xing flags: which optional fields follow, in this order. */
const xingFlags = { frames: 1, bytes: 2, toc: 4, quality: 8 } as const;

/**
 * Reads the Xing/Info (LAME, ffmpeg) or VBRI (Fraunhofer) header in the first frame of an MP3, or null
 * when that frame is audio. The header frame holds no audio (decoders skip it), and the LAME extension
 * records how many samples of priming and padding the encoder added around the audio: the audio really is
 * frames × samples per frame − delay − padding long, which is what ffmpeg decodes (it drops the 529
 * samples of decoder delay at the start and adds them back at the end).
 *
 * @example
 * const tag = readMpegTag(bytes, sniff(bytes).audioOffset);
 * if (tag?.frames) console.log((tag.frames * tag.samplesPerFrame - tag.delay - tag.padding) / tag.sampleRate);
 */
export function readMpegTag(bytes: Uint8Array, at: number): MpegTag | null {
  const frame = mpegFrameAt(bytes, at);
  if (!frame) return null;
  const base = { samplesPerFrame: frame.samples, sampleRate: frame.sampleRate };
  // VBRI sits at a fixed place: "VBRI", version, delay, quality, bytes, then the frame count.
  const vbri = at + 36;
  if (readAscii(bytes, vbri, 4) === 'VBRI') {
    return { ...base, frames: count(readUintBE(bytes, vbri + 14, 4)), delay: 0, padding: 0 };
  }
  const mpeg1 = (((bytes[at + 1] as number) >> 3) & 3) === 3;
  const mono = (bytes[at + 3] as number) >> 6 === 3;
  // Xing follows the side information, whose size depends on the version and the channel mode.
  const xing = at + 4 + (mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  const name = readAscii(bytes, xing, 4);
  if (name !== 'Xing' && name !== 'Info') return null;
  const flags = readUintBE(bytes, xing + 4, 4);
  let field = xing + 8;
  const frames = flags & xingFlags.frames ? count(readUintBE(bytes, field, 4)) : undefined;
  if (flags & xingFlags.frames) field += 4;
  if (flags & xingFlags.bytes) field += 4;
  if (flags & xingFlags.toc) field += 100;
  if (flags & xingFlags.quality) field += 4;
  // LAME extension: a 9-byte encoder name, 12 bytes of other fields, then delay and padding (12 bits each).
  if (!lameEncoders.has(readAscii(bytes, field, 4)) || field + 24 > bytes.length) {
    return { ...base, frames, delay: 0, padding: 0 };
  }
  const [high, middle, low] = [bytes[field + 21], bytes[field + 22], bytes[field + 23]] as number[];
  return {
    ...base,
    frames,
    delay: ((high as number) << 4) | ((middle as number) >> 4),
    padding: (((middle as number) & 0x0f) << 8) | (low as number),
  };
}
