import { itunesSampleCount } from '../containers/mp4-itunes-smpb.js';
import { mp4Seconds, readMp4Timing } from '../containers/mp4-timing.js';
import { readMpegTag } from '../containers/mpeg-tag.js';
import { walkMpegFrames } from '../containers/mpeg-walk.js';
import type { Sniffed } from '../containers/sniff.js';
import { scanWebm } from '../containers/webm.js';

/** Below this share of frames among its bytes, an MP3 is corrupt rather than tagged. */
const minFrameShare = 0.5;

/** What music-metadata read from the headers (duration and sample rate; either may be missing). */
export interface HeaderTiming {
  readonly seconds: number | undefined;
  readonly sampleRate: number | undefined;
}

/**
 * MP3: the frames that are there, less the priming and padding the LAME tag records. The Xing/Info frame
 * itself is no audio. A file cut short lost its padding with its last frames, not its priming.
 */
function mp3Seconds(bytes: Uint8Array, sniffed: Sniffed, header: HeaderTiming): number | string {
  const walk = walkMpegFrames(bytes, sniffed.audioOffset);
  if (walk.frameShare < minFrameShare) {
    return `is corrupt: only ${Math.round(walk.frameShare * 100)} % of its bytes are MP3 frames`;
  }
  const tag = readMpegTag(bytes, sniffed.audioOffset);
  if (!tag) return header.seconds === undefined ? walk.seconds : Math.min(header.seconds, walk.seconds);
  const walked = Math.max(0, walk.frames - 1);
  const frames = Math.min(tag.frames ?? walked, walked);
  const padding = frames === tag.frames ? tag.padding : 0;
  return Math.max(0, frames * tag.samplesPerFrame - tag.delay - padding) / tag.sampleRate;
}

/** M4A: Apple's iTunSMPB sample count, else the edit list, else the header (priming and padding included). */
function m4aSeconds(bytes: Uint8Array, header: HeaderTiming): number | undefined {
  const samples = itunesSampleCount(bytes);
  if (samples !== undefined && header.sampleRate) return samples / header.sampleRate;
  const timing = readMp4Timing(bytes);
  return (timing && mp4Seconds(timing)) ?? header.seconds;
}

/**
 * The duration the audio really holds, as a gapless decoder (ffmpeg) plays it. Encoders put priming
 * samples before the audio and pad the last frame, and most record both: MP3 in the LAME tag, M4A in its
 * edit list or iTunSMPB, WebM in CodecDelay and DiscardPadding, Ogg in the pre-skip and the last granule
 * position (music-metadata reads those two already). Counting them in made a clip of exactly 60.000 s
 * 60.03 s (MP3 at 44.1 kHz) to 60.19 s (MP3 at 8 kHz) long, and so too long.
 *
 * Headers also state what the encoder wrote, which a truncated file no longer holds, and live WebM has
 * no Duration at all; so MP3 frames and WebM blocks are counted, and the shorter figure wins. A cut body
 * is judged by what is left, as a clamped WAV is. Returns a reason (a string) when the bytes are mostly
 * not frames, and undefined when nothing states a duration.
 *
 * @example
 * audioDuration(bytes, sniff(bytes), { seconds: format.duration, sampleRate: format.sampleRate }); // 60
 */
export function audioDuration(
  bytes: Uint8Array,
  sniffed: Sniffed,
  header: HeaderTiming,
): number | string | undefined {
  if (sniffed.container === 'mp3') return mp3Seconds(bytes, sniffed, header);
  if (sniffed.container === 'm4a') return m4aSeconds(bytes, header);
  if (sniffed.container === 'webm') {
    const scan = scanWebm(bytes);
    if (scan.audioBlocks === 0) return header.seconds;
    return header.seconds === undefined ? scan.seconds : Math.min(header.seconds, scan.seconds);
  }
  return header.seconds;
}
