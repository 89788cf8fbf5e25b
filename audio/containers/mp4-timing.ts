import { readAscii, readIntBE, readUintBE } from './bytes.js';
import { type Box, child, children } from './mp4-boxes.js';

/** What the `moov` box of an M4A/MP4 file says about the timing of its (first) sound track. */
export interface Mp4Timing {
  /** Movie time units per second (mvhd), the unit of edit-list segment durations. */
  readonly movieScale: number;
  /** Media time units per second (mdhd): the sample rate for AAC. */
  readonly mediaScale: number;
  /** Media duration in media units (mdhd), priming and padding included. */
  readonly mediaDuration: number;
  /** Edit-list entries (elst) of the sound track; empty without an edit list. */
  readonly edits: readonly { readonly segmentDuration: number; readonly mediaTime: number }[];
}

/**
 * Timescale and duration of an mvhd or mdhd box: version 1 has 64-bit times, so its fields sit later.
 * Both: version and flags (4), creation and modification time (4 or 8 each), timescale (4), duration.
 */
function header(bytes: Uint8Array, box: Box): { scale: number; duration: number } {
  const wide = bytes[box.body] === 1;
  const scaleAt = box.body + (wide ? 20 : 12);
  return { scale: readUintBE(bytes, scaleAt, 4), duration: readUintBE(bytes, scaleAt + 4, wide ? 8 : 4) };
}

function editList(bytes: Uint8Array, box: Box | undefined): Mp4Timing['edits'] {
  if (!box) return [];
  const wide = bytes[box.body] === 1;
  const entry = wide ? 20 : 12;
  const count = readUintBE(bytes, box.body + 4, 4);
  const edits: { segmentDuration: number; mediaTime: number }[] = [];
  for (let i = 0, at = box.body + 8; i < count && at + entry <= box.end; i++, at += entry) {
    const size = wide ? 8 : 4;
    edits.push({
      segmentDuration: readUintBE(bytes, at, size),
      mediaTime: readIntBE(bytes, at + size, size),
    });
  }
  return edits;
}

/**
 * Reads the timing of the first sound track of an M4A/MP4 file: AAC encoders put priming samples (1024
 * or 2112) before the audio and pad the last frame, and record the audio's real extent in the track's
 * edit list (`edts/elst`: media time = priming, segment duration = the real length). Returns null when
 * there is no `moov` box or no sound track.
 *
 * @example
 * const timing = readMp4Timing(bytes); // { movieScale: 1000, mediaScale: 44100, mediaDuration: 2647024,
 * //   edits: [{ segmentDuration: 60000, mediaTime: 1024 }] }
 */
export function readMp4Timing(bytes: Uint8Array): Mp4Timing | null {
  const moov = children(bytes, 0, bytes.length).find((box) => box.type === 'moov');
  const mvhd = child(bytes, moov, 'mvhd');
  if (!moov || !mvhd) return null;
  for (const trak of children(bytes, moov.body, moov.end)) {
    if (trak.type !== 'trak') continue;
    const mdia = child(bytes, trak, 'mdia');
    const hdlr = child(bytes, mdia, 'hdlr');
    const mdhd = child(bytes, mdia, 'mdhd');
    // hdlr: version and flags (4), pre-defined (4), then the handler type.
    if (!hdlr || !mdhd || readAscii(bytes, hdlr.body + 8, 4) !== 'soun') continue;
    const media = header(bytes, mdhd);
    return {
      movieScale: header(bytes, mvhd).scale,
      mediaScale: media.scale,
      mediaDuration: media.duration,
      edits: editList(bytes, child(bytes, child(bytes, trak, 'edts'), 'elst')),
    };
  }
  return null;
}

/**
 * The real duration of the sound track in seconds: what its edit list presents, or undefined without a
 * usable edit list. The segment durations count in movie units, which ffmpeg writes in milliseconds and
 * so rounds up (2.95 s becomes 2.951 s); the media duration less the priming is exact but includes the
 * padding some encoders leave in it (Apple's). The smaller of the two is the audio, to the sample where
 * either is exact. Empty edits (media time -1) hold no audio and are left out.
 *
 * @example
 * mp4Seconds({ movieScale: 1000, mediaScale: 44100, mediaDuration: 2647024,
 *   edits: [{ segmentDuration: 60000, mediaTime: 1024 }] }); // 60
 */
export function mp4Seconds(timing: Mp4Timing): number | undefined {
  const { movieScale, mediaScale, mediaDuration } = timing;
  const edits = timing.edits.filter((edit) => edit.mediaTime >= 0);
  if (edits.length === 0 || movieScale <= 0 || mediaScale <= 0) return undefined;
  const segments = edits.reduce((sum, edit) => sum + edit.segmentDuration, 0);
  // A segment duration of 0 means "the rest of the media", and fragmented files have no media duration.
  const presented = segments > 0 ? segments / movieScale : Infinity;
  const available = mediaDuration > 0 ? (mediaDuration - (edits[0]?.mediaTime ?? 0)) / mediaScale : Infinity;
  const seconds = Math.min(presented, available);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
