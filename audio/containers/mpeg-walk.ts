import { chainsMpeg, mpegFrameAt } from './mpeg-frame.js';

/** What walking the frames of an MP3 found. */
export interface MpegWalk {
  /** Audio the frames hold, seconds (frames × samples per frame ÷ sample rate). */
  readonly seconds: number;
  readonly frames: number;
  /** Share of the bytes from the first frame to the end that are frames (the rest: tags or garbage). */
  readonly frameShare: number;
}

/**
 * Walks the MPEG Layer III frames from `start` to the end, resynchronising over junk as decoders do. Used
 * because a Xing/Info header states the length the encoder wrote, not what a truncated file still holds.
 *
 * @example
 * const sniffed = sniff(bytes);
 * const { seconds } = walkMpegFrames(bytes, sniffed.audioOffset);
 */
export function walkMpegFrames(bytes: Uint8Array, start: number): MpegWalk {
  let at = start;
  let frames = 0;
  let samples = 0;
  let frameBytes = 0;
  let sampleRate = 0;
  let key = -1;
  while (at + 4 <= bytes.length) {
    const frame = mpegFrameAt(bytes, at);
    const complete = frame !== null && at + frame.length <= bytes.length;
    if (frame && complete && (frame.key === key || chainsMpeg(bytes, at, frame))) {
      key = frame.key;
      sampleRate = frame.sampleRate;
      frames++;
      samples += frame.samples;
      frameBytes += frame.length;
      at += frame.length;
    } else at++;
  }
  const span = bytes.length - start;
  return {
    seconds: sampleRate ? samples / sampleRate : 0,
    frames,
    frameShare: span > 0 ? frameBytes / span : 0,
  };
}
