/**
 * The WAV header as the mock's analysis of reference recordings needs it: the formats it decodes and
 * the data clamped to the bytes present. The header itself is read by wav-header.ts, the kit's one
 * RIFF/WAVE reader, which the judge shares.
 */
import {
  extensibleFormatTag,
  readWavHeader,
  type WavFmt,
  type WavHeader,
  wavPlaceholderSizes,
} from './wav-header.js';

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
const allowedBits: Record<WavEncoding, readonly number[]> = {
  pcm: [8, 16, 24, 32],
  float: [32, 64],
  alaw: [8],
  mulaw: [8],
};
/** The data size field of an RF64 file whose real size is in its ds64 chunk. */
const unknownSize = 0xffffffff;

interface Format {
  readonly encoding: WavEncoding;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
}

/** The formats the analysis decodes: what a fmt chunk says, or why the analysis cannot read it. */
function readFormat(fmt: WavFmt): Format | string {
  const { channels, sampleRate, bitsPerSample } = fmt;
  let tag = fmt.formatTag;
  if (tag === extensibleFormatTag) {
    if (fmt.subFormat === undefined) return 'the WAVE_FORMAT_EXTENSIBLE fmt chunk is truncated';
    tag = fmt.subFormat;
  }
  const encoding = formatTags[tag];
  if (!encoding) return `WAV format tag 0x${tag.toString(16)} is not PCM, float, A-law or µ-law`;
  if (!allowedBits[encoding].includes(bitsPerSample))
    return `${bitsPerSample}-bit ${encoding} is not supported`;
  if (channels < 1 || channels > 32) return `a WAV with ${channels} channels is not supported`;
  if (sampleRate < 1000 || sampleRate > 768_000) return `a sample rate of ${sampleRate} Hz is not supported`;
  return { encoding, channels, sampleRate, bitsPerSample };
}

/** The data bytes present: the claimed size (RF64: its ds64 size), clamped to the end of the file. */
function dataExtent(header: WavHeader, length: number): { bytes: number; clamped: boolean } {
  const size = header.dataSize;
  let declared = size === unknownSize && header.ds64DataSize !== undefined ? header.ds64DataSize : size;
  const streamed = size === 0 && wavPlaceholderSizes.has(header.riffSize);
  const available = length - header.dataOffset;
  if (streamed || declared > available) declared = available;
  return { bytes: declared, clamped: declared === available && size !== available };
}

/**
 * Reads the RIFF/RF64 header of a WAV file (with readWavHeader, wav-header.ts) without decoding its
 * samples, for the formats the analysis decodes. Extra chunks (LIST, fact, cue, bext…) are skipped; a
 * data chunk longer than the file, or streamed with placeholder sizes, is clamped to what is there.
 *
 * @example
 * const read = readWav(bytes);
 * if (read.ok) console.log(read.wav.durationSeconds, read.wav.sampleRate);
 */
export function readWav(bytes: Uint8Array): WavRead {
  const read = readWavHeader(bytes);
  if (read.status !== 'ok') return { ok: false, reason: read.reason };
  const { header } = read;
  if (!header.fmt) return { ok: false, reason: 'the WAV file has no readable fmt chunk' };
  const format = readFormat(header.fmt);
  if (typeof format === 'string') return { ok: false, reason: format };
  const data = dataExtent(header, bytes.length);
  const blockAlign = format.channels * (format.bitsPerSample / 8);
  const frames = Math.floor(data.bytes / blockAlign);
  return {
    ok: true,
    wav: {
      ...format,
      frames,
      durationSeconds: frames / format.sampleRate,
      dataOffset: header.dataOffset,
      dataBytes: frames * blockAlign,
      clamped: data.clamped,
      chunks: header.chunks,
    },
  };
}
