/**
 * Audio framing, shared by every product: what a Content-Type claims (claimedAudio, audioKindOf), the PCM
 * layout its headers state (pcmLayoutOf), and whole-body checks of WAV, MP3 and PCM framing (the suite
 * holds whole bodies; the proxy's incremental watch says the same of bytes it cannot keep). Decoding to a
 * duration stays with the suite, which decodes with music-metadata.
 */
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
const u32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);

/** Sizes a streaming WAV may carry when the length is unknown up front. */
const placeholderSizes = new Set([0, 0xffffffff, 0x7fffffff]);

/**
 * Check a RIFF/WAVE body: the magic, the fmt chunk, a data chunk, sizes that agree with the byte count
 * (a stream may carry placeholder sizes when `streamed`), and data that is a whole number of frames.
 */
export function checkWav(bytes: Uint8Array, streamed: boolean): string[] {
  const problems: string[] = [];
  if (bytes.byteLength < 44) return [`a WAV body needs at least 44 bytes, got ${bytes.byteLength}`];
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') {
    return [`not RIFF/WAVE: starts with ${JSON.stringify(ascii(bytes, 0, 12))}`];
  }
  const riffSize = u32(bytes, 4);
  if (riffSize !== bytes.byteLength - 8 && !(streamed && placeholderSizes.has(riffSize))) {
    problems.push(
      `RIFF size ${riffSize} does not match the body (${bytes.byteLength} bytes → ${bytes.byteLength - 8})`,
    );
  }
  let at = 12;
  let blockAlign = 0;
  let sawData = false;
  while (at + 8 <= bytes.byteLength) {
    const id = ascii(bytes, at, 4);
    const size = u32(bytes, at + 4);
    if (id === 'fmt ') blockAlign = u16(bytes, at + 20);
    if (id === 'data') {
      sawData = true;
      const available = bytes.byteLength - at - 8;
      const placeholder = streamed && placeholderSizes.has(size);
      if (!placeholder && size > available)
        problems.push(`data chunk claims ${size} bytes, ${available} present`);
      const dataLen = placeholder ? available : Math.min(size, available);
      if (blockAlign === 0) problems.push('no fmt chunk (or block align 0) before the data chunk');
      else if (dataLen % blockAlign !== 0) {
        problems.push(`data length ${dataLen} is not a multiple of block align ${blockAlign}`);
      }
      if (dataLen === 0) problems.push('the data chunk is empty');
      break;
    }
    at += 8 + size + (size % 2);
  }
  if (!sawData) problems.push('no data chunk');
  return problems;
}

/** Check an MPEG audio body: an ID3v2 tag or a frame sync, and a frame sync right after any tag. */
export function checkMp3(bytes: Uint8Array): string[] {
  let at = 0;
  if (ascii(bytes, 0, 3) === 'ID3' && bytes.byteLength >= 10) {
    const size =
      (((bytes[6] ?? 0) & 0x7f) << 21) |
      (((bytes[7] ?? 0) & 0x7f) << 14) |
      (((bytes[8] ?? 0) & 0x7f) << 7) |
      ((bytes[9] ?? 0) & 0x7f);
    at = 10 + size;
  }
  const b0 = bytes[at];
  const b1 = bytes[at + 1];
  if (b0 !== 0xff || b1 === undefined || (b1 & 0xe0) !== 0xe0) {
    return [`no MPEG frame sync at byte ${at} (got ${b0?.toString(16)} ${b1?.toString(16)})`];
  }
  return [];
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
  let at = 12;
  let pcm16 = false;
  while (at + 8 <= bytes.byteLength) {
    const id = ascii(bytes, at, 4);
    const size = u32(bytes, at + 4);
    if (id === 'fmt ')
      pcm16 = (u16(bytes, at + 8) === 1 || u16(bytes, at + 8) === 0xfffe) && u16(bytes, at + 22) === 16;
    if (id === 'data') return pcm16 ? at + 8 : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
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
