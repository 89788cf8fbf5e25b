import { readAscii, readUint16LE, readUint32LE } from './bytes.js';

/** How the samples of a WAV file are stored. */
export type WavEncoding = 'pcm' | 'float' | 'alaw' | 'mulaw';

/** What the RIFF header of a readable WAV file says, with where its samples are. */
export interface WavInfo {
  readonly encoding: WavEncoding;
  /** Bits per sample as stored (the container size: 24 for 20-bit-in-24). */
  readonly bitsPerSample: number;
  readonly sampleRate: number;
  readonly channels: number;
  /** Whole sample frames present in the file (after clamping). */
  readonly frames: number;
  readonly durationSeconds: number;
  readonly dataOffset: number;
  readonly dataBytes: number;
  /** True when the data chunk claimed more bytes than the file holds (streamed WAVs do): it was clamped. */
  readonly clamped: boolean;
  /** Chunk ids in file order, e.g. ['fmt ', 'LIST', 'data']. */
  readonly chunks: readonly string[];
}

/** A readable WAV, or why it is not: unreadable files are expected and are values, not exceptions. */
export type WavRead =
  | { readonly ok: true; readonly wav: WavInfo }
  | { readonly ok: false; readonly reason: string };

const formatTags: Record<number, WavEncoding> = { 1: 'pcm', 3: 'float', 6: 'alaw', 7: 'mulaw' };
const extensibleTag = 0xfffe;
const allowedBits: Record<WavEncoding, readonly number[]> = {
  pcm: [8, 16, 24, 32],
  float: [32, 64],
  alaw: [8],
  mulaw: [8],
};
/** Size fields that streaming writers put in before they know the length (ffmpeg writes 0xFFFFFFFF). */
const unknownSize = 0xffffffff;

interface Format {
  readonly encoding: WavEncoding;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
}

function readFormat(bytes: Uint8Array, at: number, size: number): Format | string {
  if (size < 16) return `the fmt chunk is ${size} bytes, shorter than 16`;
  let tag = readUint16LE(bytes, at);
  const channels = readUint16LE(bytes, at + 2);
  const sampleRate = readUint32LE(bytes, at + 4);
  const bitsPerSample = readUint16LE(bytes, at + 14);
  if (tag === extensibleTag) {
    // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the SubFormat GUID.
    if (size < 40) return 'the WAVE_FORMAT_EXTENSIBLE fmt chunk is truncated';
    tag = readUint16LE(bytes, at + 24);
  }
  const encoding = formatTags[tag];
  if (!encoding) return `WAV format tag 0x${tag.toString(16)} is not PCM, float, A-law or µ-law`;
  if (!allowedBits[encoding].includes(bitsPerSample))
    return `${bitsPerSample}-bit ${encoding} is not supported`;
  if (channels < 1 || channels > 32) return `a WAV with ${channels} channels is not supported`;
  if (sampleRate < 1000 || sampleRate > 768_000) return `a sample rate of ${sampleRate} Hz is not supported`;
  return { encoding, channels, sampleRate, bitsPerSample };
}

/**
 * Reads the RIFF/RF64 header of a WAV file without decoding its samples. Extra chunks (LIST, fact, cue,
 * bext…) are skipped; a data chunk longer than the file is clamped to what is there.
 *
 * @example
 * const read = readWav(bytes);
 * if (read.ok) console.log(read.wav.durationSeconds, read.wav.sampleRate);
 */
export function readWav(bytes: Uint8Array): WavRead {
  if (bytes.length < 12) return { ok: false, reason: `the WAV header is truncated (${bytes.length} bytes)` };
  const riffSize = readUint32LE(bytes, 4);
  const chunks: string[] = [];
  let format: Format | undefined;
  let data: { offset: number; bytes: number; clamped: boolean } | undefined;
  let ds64DataSize: number | undefined;
  let at = 12;
  while (at + 8 <= bytes.length && !data?.clamped) {
    const id = readAscii(bytes, at, 4);
    const size = readUint32LE(bytes, at + 4);
    const body = at + 8;
    chunks.push(id);
    if (id === 'ds64' && size >= 16 && body + 16 <= bytes.length) {
      ds64DataSize = readUint32LE(bytes, body + 8) + readUint32LE(bytes, body + 12) * 2 ** 32;
    } else if (id === 'fmt ') {
      if (body + Math.min(size, 40) > bytes.length)
        return { ok: false, reason: 'the fmt chunk is truncated' };
      const read = readFormat(bytes, body, size);
      if (typeof read === 'string') return { ok: false, reason: read };
      format = read;
    } else if (id === 'data') {
      let declared = size === unknownSize && ds64DataSize !== undefined ? ds64DataSize : size;
      const streamed = size === 0 && (riffSize === 0 || riffSize === unknownSize);
      const available = bytes.length - body;
      if (streamed || declared > available) declared = available;
      data = { offset: body, bytes: declared, clamped: declared === available && size !== available };
    } else if (body + size > bytes.length && !(format && data)) {
      return {
        ok: false,
        reason: `the "${id.replace(/[^\x20-\x7e]/g, '?')}" chunk runs past the end of the file`,
      };
    }
    at = body + size + (size & 1);
  }
  if (!format) return { ok: false, reason: 'the WAV file has no readable fmt chunk' };
  if (!data) return { ok: false, reason: 'the WAV file has no data chunk' };
  const blockAlign = format.channels * (format.bitsPerSample / 8);
  const frames = Math.floor(data.bytes / blockAlign);
  return {
    ok: true,
    wav: {
      ...format,
      frames,
      durationSeconds: frames / format.sampleRate,
      dataOffset: data.offset,
      dataBytes: frames * blockAlign,
      clamped: data.clamped,
      chunks,
    },
  };
}
