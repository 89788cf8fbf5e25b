/**
 * Hand-built MP3 streams for the tables of the LAME-tag reading: a Xing/Info (or VBRI) header frame
 * with chosen frame count, delay and padding, then silent frames. Only the headers matter to the
 * duration; mpg123 decodes the all-zero frames as silence.
 */

/** A Layer III frame kind: its 4 header bytes, its length, and its side-information size. */
export interface FrameKind {
  readonly header: readonly number[];
  readonly length: number;
  readonly sideInfo: number;
  readonly samplesPerFrame: number;
  readonly sampleRate: number;
}

/** MPEG-1, 128 kbit/s, 44.1 kHz, joint stereo: 417-byte frames of 1152 samples. */
export const mpeg1Stereo: FrameKind = {
  header: [0xff, 0xfb, 0x90, 0x64],
  length: 417,
  sideInfo: 32,
  samplesPerFrame: 1152,
  sampleRate: 44100,
};

/** MPEG-2.5, 8 kbit/s, 8 kHz, mono: 72-byte frames of 576 samples (what LAME writes at 8 kHz). */
export const mpeg25Mono: FrameKind = {
  header: [0xff, 0xe3, 0x18, 0xc4],
  length: 72,
  sideInfo: 9,
  samplesPerFrame: 576,
  sampleRate: 8000,
};

/** What the header frame says; each field left out is left out of the tag. */
export interface TagSpec {
  readonly name?: 'Info' | 'Xing' | 'VBRI';
  readonly frames?: number;
  /** Encoder name of the LAME extension; `undefined` writes no extension. */
  readonly encoder?: string;
  readonly delay?: number;
  readonly padding?: number;
  /** Also write the bytes, TOC and quality fields (as LAME and ffmpeg do), which move the extension. */
  readonly allFields?: boolean;
}

const text = (value: string): number[] => [...value].map((c) => c.charCodeAt(0));
const be32 = (value: number): number[] => [
  value >>> 24,
  (value >>> 16) & 0xff,
  (value >>> 8) & 0xff,
  value & 0xff,
];

/** One silent frame of the kind. */
export function audioFrame(kind: FrameKind): number[] {
  return [...kind.header, ...new Array<number>(kind.length - 4).fill(0)];
}

/** The header frame of a stream: a frame of the kind whose body holds the tag. */
export function tagFrame(kind: FrameKind, spec: TagSpec): number[] {
  const frame = audioFrame(kind);
  const put = (at: number, bytes: number[]) => frame.splice(at, bytes.length, ...bytes);
  const name = spec.name ?? 'Info';
  if (name === 'VBRI') {
    put(36, [
      ...text('VBRI'),
      0,
      1,
      0,
      0,
      0,
      0,
      ...be32(kind.length * (spec.frames ?? 0)),
      ...be32(spec.frames ?? 0),
    ]);
    return frame;
  }
  const flags = (spec.frames === undefined ? 0 : 1) | (spec.allFields ? 2 | 4 | 8 : 0);
  let at = 4 + kind.sideInfo;
  put(at, [...text(name), ...be32(flags)]);
  at += 8;
  if (spec.frames !== undefined) {
    put(at, be32(spec.frames));
    at += 4;
  }
  if (spec.allFields) at += 4 + 100 + 4;
  if (spec.encoder !== undefined) {
    const delay = spec.delay ?? 0;
    const padding = spec.padding ?? 0;
    put(at, text(spec.encoder.padEnd(9, ' ').slice(0, 9)));
    put(at + 21, [delay >> 4, ((delay & 0x0f) << 4) | (padding >> 8), padding & 0xff]);
  }
  return frame;
}

/** A stream: the header frame (unless `spec` is null), then `frames` silent frames. */
export function mp3Stream(kind: FrameKind, spec: TagSpec | null, frames: number): Uint8Array {
  const body = audioFrame(kind);
  const out: number[] = spec ? tagFrame(kind, spec) : [];
  for (let i = 0; i < frames; i++) out.push(...body);
  return Uint8Array.from(out);
}
