/**
 * Audio framing, shared by every product: what a Content-Type claims (claimedAudio, audioKindOf), the PCM
 * layout its headers state (pcmLayoutOf), and whole-body checks of WAV, MP3 and PCM framing (the suite
 * holds whole bodies; the proxy's incremental watch says the same of bytes it cannot keep). Decoding to a
 * duration stays with the suite, which decodes with music-metadata. WAV headers are read by the audio
 * library's one reader (audio/containers/wav-header.ts); the judgements on them are made here.
 */
import { readWavHeader, type WavFmt, wavPlaceholderSizes } from '../audio/containers/wav-header.js';
import { type AudioKind, type HeaderMap, header, mimeOf, type PcmLayout } from './exchange.js';

export type { PcmLayout };

/** What the Content-Type of a synthesis response claims. */
export type ClaimedAudio = 'wav' | 'mp3' | 'pcm' | 'other';

/**
 * Classify a Content-Type: the audio MIME names a provider may use for each format.
 *
 * @example
 * claimedAudio('audio/x-wav; charset=binary') // 'wav'
 */
export function claimedAudio(contentType: string | null): ClaimedAudio {
  const mime = mimeOf(contentType ?? undefined);
  if (['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'].includes(mime)) return 'wav';
  if (['audio/mpeg', 'audio/mp3', 'audio/mpeg3'].includes(mime)) return 'mp3';
  if (['audio/pcm', 'audio/l16', 'audio/l24', 'audio/l8', 'audio/raw', 'audio/x-raw'].includes(mime)) {
    return 'pcm';
  }
  return 'other';
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** The head the proxy keeps while it waits for the data chunk: past it, a body is not judged a WAV. */
const maxWavHead = 64 * 1024;

export { wavPlaceholderSizes };

/** The head of a WAV up to its data chunk, as its fields say. */
export interface WavHead {
  readonly riffSize: number;
  readonly dataOffset: number;
  readonly dataSize: number;
  readonly blockAlign: number;
  readonly byteRate: number;
}

/**
 * The judge's reading of a WAV head, read by the audio library's readWavHeader: the head up to its data
 * chunk, not yet complete (undefined: the proxy feeds it more bytes), or a problem (not RIFF, a linear fmt
 * chunk whose fields disagree, no fmt before data). The suite's `checkWav` and the proxy's incremental
 * watch both use it.
 */
export function readWavHead(b: Uint8Array): WavHead | string | undefined {
  const read = readWavHeader(b, { headCap: maxWavHead, riffOnly: true });
  if (read.status === 'more') return undefined;
  if (read.status === 'bad') return read.reason;
  const { fmt, riffSize, dataOffset, dataSize } = read.header;
  if (!fmt || fmt.offset > dataOffset || fmt.blockAlign === 0)
    return 'no fmt chunk (or block align 0) before the data chunk';
  const problem = fmtInconsistency(fmt);
  if (problem) return problem;
  return { riffSize, dataOffset, dataSize, blockAlign: fmt.blockAlign, byteRate: fmt.byteRate };
}

/** WAVE_FORMAT_PCM, IEEE float and EXTENSIBLE: the formats whose fmt fields follow from one another. */
const linearFormats = new Set([1, 3, 0xfffe]);

/**
 * What is inconsistent in a linear (PCM or float) fmt chunk: a player derives the sample rate from one
 * field and the byte rate from another, so a header whose fields disagree plays at the wrong speed or
 * not at all. Other codecs (ADPCM, µ-law …) have their own relations and are not judged.
 */
function fmtInconsistency(fmt: WavFmt): string | undefined {
  const { channels, sampleRate, byteRate, blockAlign, bitsPerSample: bits } = fmt;
  if (!linearFormats.has(fmt.formatTag)) return undefined;
  if (channels === 0 || sampleRate === 0 || bits === 0)
    return `the fmt chunk gives ${channels} channel(s), sample rate ${sampleRate} Hz, ${bits} bits per sample`;
  const frame = channels * Math.ceil(bits / 8);
  if (blockAlign !== frame)
    return `the fmt chunk's block align is ${blockAlign}; ${channels} channel(s) × ${bits} bits make ${frame}`;
  if (byteRate !== sampleRate * blockAlign)
    return `the fmt chunk's byte rate is ${byteRate}; sample rate ${sampleRate} Hz × block align ${blockAlign} make ${sampleRate * blockAlign}`;
  return undefined;
}

/**
 * Check a RIFF/WAVE body whole: its head (readWavHead), sizes that agree with the byte count (a stream
 * may carry placeholder sizes when `streamed`), and data that is a whole number of frames.
 */
export function checkWav(bytes: Uint8Array, streamed: boolean): string[] {
  if (bytes.byteLength < 44) return [`a WAV body needs at least 44 bytes, got ${bytes.byteLength}`];
  const head = readWavHead(bytes);
  if (typeof head === 'string') return [head];
  if (!head) return ['no data chunk'];
  const problems: string[] = [];
  if (head.riffSize !== bytes.byteLength - 8 && !(streamed && wavPlaceholderSizes.has(head.riffSize))) {
    problems.push(
      `RIFF size ${head.riffSize} does not match the body (${bytes.byteLength} bytes → ${bytes.byteLength - 8})`,
    );
  }
  const available = bytes.byteLength - head.dataOffset;
  const placeholder = streamed && wavPlaceholderSizes.has(head.dataSize);
  if (!placeholder && head.dataSize > available)
    problems.push(`data chunk claims ${head.dataSize} bytes, ${available} present`);
  const dataLen = placeholder ? available : Math.min(head.dataSize, available);
  if (dataLen % head.blockAlign !== 0)
    problems.push(`data length ${dataLen} is not a multiple of block align ${head.blockAlign}`);
  if (dataLen === 0) problems.push('the data chunk is empty');
  return problems;
}

/** Check a raw PCM body against its stated layout: nonempty and a whole number of frames. */
export function checkPcm(bytes: Uint8Array, layout: PcmLayout | null): string[] {
  if (bytes.byteLength === 0) return ['the PCM body is empty'];
  if (!layout) return [];
  const align = layout.channels * Math.ceil(layout.bitDepth / 8);
  if (align <= 0) return [`PCM headers give an impossible layout (${JSON.stringify(layout)})`];
  if (bytes.byteLength % align !== 0) {
    return [`PCM length ${bytes.byteLength} is not a multiple of the block align ${align}`];
  }
  const riff = ascii(bytes, 0, 4);
  if (riff === 'RIFF' || riff === 'ID3') return [`a PCM body starts with a ${riff} header`];
  return [];
}

/** The loudest sample must pass 1 % of full scale: quieter 16-bit audio is silence, not speech. */
export const silencePeak = Math.round(32_767 * 0.01);

/** The largest |sample| of little-endian signed 16-bit samples from `at` to the end. */
function peak16(bytes: Uint8Array, at: number): number {
  let peak = 0;
  const end = bytes.byteLength - 1;
  for (let i = at; i < end; i += 2) {
    const v = (((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8)) << 16) >> 16;
    const a = v < 0 ? -v : v;
    if (a > peak) peak = a;
  }
  return peak;
}

/** Where the samples of a 16-bit integer PCM WAV start, or undefined for any other WAV. */
function wav16DataStart(bytes: Uint8Array): number | undefined {
  const read = readWavHeader(bytes);
  if (read.status !== 'ok' || !read.header.fmt) return undefined;
  const { fmt, dataOffset } = read.header;
  const pcm16 = (fmt.formatTag === 1 || fmt.formatTag === 0xfffe) && fmt.bitsPerSample === 16;
  return pcm16 && fmt.offset < dataOffset ? dataOffset : undefined;
}

/**
 * A problem when 16-bit WAV or PCM audio is silent (peak under 1 % of full scale), else undefined.
 * Other encodings are not decoded here.
 */
export function silenceProblem(
  bytes: Uint8Array,
  claimed: ClaimedAudio,
  pcm: PcmLayout | null,
): string | undefined {
  let start: number | undefined;
  if (claimed === 'wav') start = wav16DataStart(bytes);
  else if (claimed === 'pcm' && pcm?.bitDepth === 16) start = 0;
  if (start === undefined || start >= bytes.byteLength) return undefined;
  const peak = peak16(bytes, start);
  return peak > silencePeak
    ? undefined
    : `the audio is silent: its loudest sample is ${peak} of 32767 (under 1 % of full scale) for a non-empty text`;
}

/** The audio kind a Content-Type claims (the MIME aliases a provider may use), or undefined. */
export function audioKindOf(contentType: string | undefined | null): AudioKind | undefined {
  const kind = claimedAudio(contentType ?? null);
  return kind === 'other' ? undefined : kind;
}

/** The PCM layout the answer's headers state, or what is wrong with them. */
export function pcmLayoutOf(
  headers: HeaderMap,
  names: { readonly sampleRate: string; readonly channels: string; readonly bitDepth: string },
): { layout: PcmLayout | undefined; problems: string[] } {
  const problems: string[] = [];
  const read = (name: string) => {
    const raw = header(headers, name);
    if (raw === undefined) {
      problems.push(`the ${name} header is missing`);
      return undefined;
    }
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || n < 1) {
      problems.push(`${name} is ${JSON.stringify(raw)}, not a positive integer`);
      return undefined;
    }
    return n;
  };
  const sampleRate = read(names.sampleRate);
  const channels = read(names.channels);
  const bitDepth = read(names.bitDepth);
  const layout =
    sampleRate !== undefined && channels !== undefined && bitDepth !== undefined
      ? { sampleRate, channels, bitDepth }
      : undefined;
  return { layout, problems };
}
