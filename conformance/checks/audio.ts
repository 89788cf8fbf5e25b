import { parseBuffer } from 'music-metadata';

/** What the Content-Type of a synthesis response claims. */
export type ClaimedAudio = 'wav' | 'mp3' | 'pcm' | 'other';

/** PCM layout, as the response headers state it. */
export interface PcmLayout {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitDepth: number;
}

/** What the bytes turned out to be, and every way they disagree with the claim. */
export interface AudioVerdict {
  readonly claimed: ClaimedAudio;
  readonly problems: readonly string[];
  /** Duration from a real decode (music-metadata) or from the PCM layout; null when unknown. */
  readonly durationSeconds: number | null;
}

/**
 * Classify a Content-Type: the audio MIME names a provider may use for each format.
 *
 * @example
 * claimedAudio('audio/x-wav; charset=binary') // 'wav'
 */
export function claimedAudio(contentType: string | null): ClaimedAudio {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
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

/**
 * Judge a synthesis body against its Content-Type: sniff the container, then decode WAV and MP3 with
 * music-metadata to read a duration.
 *
 * @example
 * const v = await judgeAudio(bytes, res.headers.get('content-type'), { streamed: false, pcm: null });
 * if (v.problems.length) console.log(v.problems);
 */
export async function judgeAudio(
  bytes: Uint8Array,
  contentType: string | null,
  opts: {
    readonly streamed: boolean;
    readonly pcm: PcmLayout | null;
    /** The text was not empty: 16-bit WAV/PCM must not be silent. */
    readonly expectSound?: boolean;
  },
): Promise<AudioVerdict> {
  const claimed = claimedAudio(contentType);
  const silent = () => (opts.expectSound ? silenceProblem(bytes, claimed, opts.pcm) : undefined);
  if (claimed === 'pcm') {
    const problems = checkPcm(bytes, opts.pcm);
    const quiet = problems.length === 0 ? silent() : undefined;
    if (quiet) problems.push(quiet);
    const align = opts.pcm ? opts.pcm.channels * Math.ceil(opts.pcm.bitDepth / 8) : 0;
    const duration = opts.pcm && align > 0 ? bytes.byteLength / align / opts.pcm.sampleRate : null;
    return { claimed, problems, durationSeconds: duration };
  }
  const problems =
    claimed === 'wav' ? checkWav(bytes, opts.streamed) : claimed === 'mp3' ? checkMp3(bytes) : [];
  if (bytes.byteLength === 0) problems.push('the audio body is empty');
  let durationSeconds: number | null = null;
  if (problems.length === 0 && claimed !== 'other') {
    try {
      const meta = await parseBuffer(
        bytes,
        { mimeType: contentType ?? undefined, size: bytes.byteLength },
        {
          duration: true,
          skipCovers: true,
        },
      );
      durationSeconds = meta.format.duration ?? null;
      if (!durationSeconds || durationSeconds <= 0) problems.push('the decoder found no duration');
      const quiet = silent();
      if (quiet) problems.push(quiet);
    } catch (e) {
      problems.push(`the decoder refused the body: ${(e as Error).message}`);
    }
  }
  return { claimed, problems, durationSeconds };
}
