/**
 * The one reader of a RIFF/WAVE header in the kit. It states what the header says (magic, RIFF size, the
 * fmt fields, the data chunk's offset and claimed size, the chunks in order) and whether the bytes hold
 * it yet; it judges nothing. Its readers:
 * - the mock's analysis of reference recordings: `readWav` (wav-riff.ts) adds the formats it decodes and
 *   clamps the data to the bytes present;
 * - the judge (judge/audio.ts), so the conformance suite and the validating proxy: `readWavHead`,
 *   `checkWav` and the silence check add the size, fmt and frame judgements; the proxy's incremental
 *   audio watch feeds it a growing head until it is no longer 'more'.
 */
import { readAscii, readUint16LE, readUint32LE } from './bytes.js';

/** Size fields a streaming writer leaves in before it knows the length (ffmpeg writes 0xFFFFFFFF). */
export const wavPlaceholderSizes: ReadonlySet<number> = new Set([0, 0xffffffff, 0x7fffffff]);

/** WAVE_FORMAT_EXTENSIBLE: the real format tag is the first two bytes of the SubFormat GUID. */
export const extensibleFormatTag = 0xfffe;

/** The fields of a fmt chunk, as written. */
export interface WavFmt {
  /** Where the chunk's body starts. */
  readonly offset: number;
  /** The chunk's size field. */
  readonly size: number;
  readonly formatTag: number;
  /** The SubFormat's tag of an extensible fmt chunk of 40 bytes or more; else undefined. */
  readonly subFormat: number | undefined;
  readonly channels: number;
  readonly sampleRate: number;
  readonly byteRate: number;
  readonly blockAlign: number;
  readonly bitsPerSample: number;
}

/** What a RIFF/WAVE header says, up to the data chunk and past it as far as whole chunks follow. */
export interface WavHeader {
  readonly magic: 'RIFF' | 'RF64' | 'BW64';
  readonly riffSize: number;
  /** The first fmt chunk, before or (rarely) after the data chunk; undefined when there is none. */
  readonly fmt: WavFmt | undefined;
  readonly dataOffset: number;
  /** The data chunk's size field as written: a streamed WAV may carry a placeholder (wavPlaceholderSizes). */
  readonly dataSize: number;
  /** RF64/BW64: the data size of the ds64 chunk before the data chunk. */
  readonly ds64DataSize: number | undefined;
  /** Chunk ids in file order, e.g. ['fmt ', 'LIST', 'data']. */
  readonly chunks: readonly string[];
}

/**
 * A header; 'more' when the bytes end before it does (the reason says what is missing if no more come);
 * 'bad' when no more bytes can help.
 */
export type WavHeaderRead =
  | { readonly status: 'ok'; readonly header: WavHeader }
  | { readonly status: 'more'; readonly reason: string }
  | { readonly status: 'bad'; readonly reason: string };

export interface WavHeaderOptions {
  /** Past this many bytes without a data chunk, 'more' becomes 'bad': a bound for incremental readers. */
  readonly headCap?: number;
  /** Refuse RF64 and BW64 as not RIFF/WAVE. */
  readonly riffOnly?: boolean;
}

interface Walk {
  chunks: string[];
  fmt?: WavFmt;
  ds64DataSize?: number;
  data?: { readonly offset: number; readonly size: number };
}

/**
 * Reads the RIFF/WAVE header at the start of `bytes`, walking its chunks (each padded to an even
 * length). Extra chunks (LIST, fact, cue…) are listed and skipped. After the data chunk the walk goes on
 * only while whole chunks follow, and never fails there.
 *
 * @example
 * const read = readWavHeader(bytes);
 * if (read.status === 'ok') console.log(read.header.fmt?.sampleRate, read.header.dataOffset);
 */
export function readWavHeader(bytes: Uint8Array, options: WavHeaderOptions = {}): WavHeaderRead {
  if (bytes.length < 12)
    return { status: 'more', reason: `the WAV header is truncated (${bytes.length} bytes)` };
  const magic = readAscii(bytes, 0, 4);
  const magics: readonly WavHeader['magic'][] = options.riffOnly ? ['RIFF'] : ['RIFF', 'RF64', 'BW64'];
  if (!magics.some((m) => m === magic) || readAscii(bytes, 8, 4) !== 'WAVE')
    return { status: 'bad', reason: `not RIFF/WAVE: starts with ${JSON.stringify(readAscii(bytes, 0, 12))}` };
  const riffSize = readUint32LE(bytes, 4);
  const walk: Walk = { chunks: [] };
  const stopped = walkChunks(bytes, riffSize, walk);
  const { fmt, ds64DataSize, data, chunks } = walk;
  if (stopped?.status === 'bad' && !data) return stopped;
  if (!data) {
    if (options.headCap !== undefined && bytes.length > options.headCap)
      return { status: 'bad', reason: `no data chunk in the first ${options.headCap} bytes` };
    return (
      stopped ?? {
        status: 'more',
        reason: `the WAV file has no ${fmt ? 'data chunk' : 'readable fmt chunk'}`,
      }
    );
  }
  return {
    status: 'ok',
    header: {
      magic: magic as WavHeader['magic'],
      riffSize,
      fmt,
      dataOffset: data.offset,
      dataSize: data.size,
      ds64DataSize,
      chunks,
    },
  };
}

type Stop = { readonly status: 'more' | 'bad'; readonly reason: string } | undefined;
const more = (reason: string): Stop => ({ status: 'more', reason });

/**
 * Walks the chunks from byte 12 into `walk`. Stops early with 'more' when the bytes end inside a chunk,
 * or 'bad' for a problem more bytes cannot mend. Past the data chunk the header is whole: a stop there
 * only ends the walk (readWavHeader drops its reason).
 */
function walkChunks(bytes: Uint8Array, riffSize: number, walk: Walk): Stop {
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = readAscii(bytes, at, 4);
    const size = readUint32LE(bytes, at + 4);
    const body = at + 8;
    const runsPast = body + size > bytes.length;
    walk.chunks.push(id);
    if (id === 'data' && !walk.data) {
      walk.data = { offset: body, size };
      // A streamed data chunk (size 0 under a placeholder RIFF size) or a long one runs to the end.
      if ((size === 0 && wavPlaceholderSizes.has(riffSize)) || runsPast) return undefined;
    } else if (id === 'fmt ' && !walk.fmt) {
      if (body + Math.min(size, 40) > bytes.length) return more('the fmt chunk is truncated');
      if (size < 16) return { status: 'bad', reason: `the fmt chunk is ${size} bytes, shorter than 16` };
      walk.fmt = readFmt(bytes, body, size);
    } else if (id === 'ds64' && !walk.data && size >= 16 && body + 16 <= bytes.length) {
      walk.ds64DataSize = readUint32LE(bytes, body + 8) + readUint32LE(bytes, body + 12) * 2 ** 32;
    } else if (runsPast) {
      return more(`the "${id.replace(/[^\x20-\x7e]/g, '?')}" chunk runs past the end of the file`);
    }
    at = body + size + (size & 1);
  }
  return undefined;
}

function readFmt(bytes: Uint8Array, body: number, size: number): WavFmt {
  const formatTag = readUint16LE(bytes, body);
  return {
    offset: body,
    size,
    formatTag,
    subFormat: formatTag === extensibleFormatTag && size >= 40 ? readUint16LE(bytes, body + 24) : undefined,
    channels: readUint16LE(bytes, body + 2),
    sampleRate: readUint32LE(bytes, body + 4),
    byteRate: readUint32LE(bytes, body + 8),
    blockAlign: readUint16LE(bytes, body + 12),
    bitsPerSample: readUint16LE(bytes, body + 14),
  };
}
