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

/** A box of an ISO BMFF file, located in its bytes. */
export interface Box {
  readonly type: string;
  /** Where the body starts (after size, type and any 64-bit size). */
  readonly body: number;
  readonly end: number;
}

export const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/** Big-endian unsigned integer of `size` bytes (up to 8; exact below 2^53). */
function uint(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return value;
}

/**
 * Big-endian two's-complement integer of 4 or 8 bytes (an edit's media time is -1 for an empty edit).
 * Negative values are read from their complement: 2^64 - 1 is not exact in a double, but 0 is.
 */
function int(bytes: Uint8Array, at: number, size: number): number {
  if ((bytes[at] ?? 0) < 0x80) return uint(bytes, at, size);
  let complement = 0;
  for (let i = 0; i < size; i++) complement = complement * 256 + (~(bytes[at + i] ?? 0) & 0xff);
  return -complement - 1;
}

/** The child boxes between `start` and `end`; stops at a box that does not fit (a truncated file). */
export function children(bytes: Uint8Array, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = uint(bytes, at, 4);
    let header = 8;
    if (size === 1) {
      size = uint(bytes, at + 8, 8);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    boxes.push({ type: ascii(bytes, at + 4, 4), body: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

export const child = (bytes: Uint8Array, box: Box | undefined, type: string): Box | undefined =>
  box && children(bytes, box.body, box.end).find((candidate) => candidate.type === type);

/**
 * Timescale and duration of an mvhd or mdhd box: version 1 has 64-bit times, so its fields sit later.
 * Both: version and flags (4), creation and modification time (4 or 8 each), timescale (4), duration.
 */
function header(bytes: Uint8Array, box: Box): { scale: number; duration: number } {
  const wide = bytes[box.body] === 1;
  const scaleAt = box.body + (wide ? 20 : 12);
  return { scale: uint(bytes, scaleAt, 4), duration: uint(bytes, scaleAt + 4, wide ? 8 : 4) };
}

function editList(bytes: Uint8Array, box: Box | undefined): Mp4Timing['edits'] {
  if (!box) return [];
  const wide = bytes[box.body] === 1;
  const entry = wide ? 20 : 12;
  const count = uint(bytes, box.body + 4, 4);
  const edits: { segmentDuration: number; mediaTime: number }[] = [];
  for (let i = 0, at = box.body + 8; i < count && at + entry <= box.end; i++, at += entry) {
    const size = wide ? 8 : 4;
    edits.push({ segmentDuration: uint(bytes, at, size), mediaTime: int(bytes, at + size, size) });
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
    if (!hdlr || !mdhd || ascii(bytes, hdlr.body + 8, 4) !== 'soun') continue;
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
