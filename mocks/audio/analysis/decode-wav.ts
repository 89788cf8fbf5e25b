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

const fourCc = (bytes: Uint8Array, at: number): string =>
  String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

interface Format {
  readonly encoding: WavEncoding;
  readonly channels: number;
  readonly sampleRate: number;
  readonly bitsPerSample: number;
}

function readFormat(view: DataView, at: number, size: number): Format | string {
  if (size < 16) return `the fmt chunk is ${size} bytes, shorter than 16`;
  let tag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  if (tag === extensibleTag) {
    // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the SubFormat GUID.
    if (size < 40) return 'the WAVE_FORMAT_EXTENSIBLE fmt chunk is truncated';
    tag = view.getUint16(at + 24, true);
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
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffSize = view.getUint32(4, true);
  const chunks: string[] = [];
  let format: Format | undefined;
  let data: { offset: number; bytes: number; clamped: boolean } | undefined;
  let ds64DataSize: number | undefined;
  let at = 12;
  while (at + 8 <= bytes.length && !data?.clamped) {
    const id = fourCc(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    chunks.push(id);
    if (id === 'ds64' && size >= 16 && body + 16 <= bytes.length) {
      ds64DataSize = view.getUint32(body + 8, true) + view.getUint32(body + 12, true) * 2 ** 32;
    } else if (id === 'fmt ') {
      if (body + Math.min(size, 40) > bytes.length)
        return { ok: false, reason: 'the fmt chunk is truncated' };
      const read = readFormat(view, body, size);
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

function g711Table(decode: (code: number) => number): Float32Array {
  const table = new Float32Array(256);
  for (let code = 0; code < 256; code++) table[code] = decode(code) / 32768;
  return table;
}

const mulawTable = g711Table((code) => {
  const u = ~code & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u >> 4) & 7)) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
});

const alawTable = g711Table((code) => {
  const a = code ^ 0x55;
  const exponent = (a >> 4) & 7;
  const mantissa = a & 0x0f;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
});

/** The samples as one typed array with a scale to [-1, 1) and an offset (unsigned 8-bit is centred at 128). */
function sampleArray(
  bytes: Uint8Array,
  wav: WavInfo,
): {
  samples: Int16Array | Uint8Array | ArrayLike<number>;
  scale: number;
  offset: number;
  packed24: boolean;
} {
  const start = bytes.byteOffset + wav.dataOffset;
  const width = wav.bitsPerSample / 8;
  // Typed views need aligned offsets; copying the data is a memcpy and cheaper than per-sample DataView calls.
  const aligned =
    width === 3 || start % width === 0 ? bytes : bytes.slice(wav.dataOffset, wav.dataOffset + wav.dataBytes);
  const base = aligned === bytes ? start : 0;
  const count = wav.dataBytes / width;
  const buffer = aligned.buffer;
  const plain = { scale: 1, offset: 0, packed24: false };
  if (wav.encoding === 'mulaw' || wav.encoding === 'alaw') {
    const table = wav.encoding === 'mulaw' ? mulawTable : alawTable;
    const codes = new Uint8Array(buffer, base, count);
    const samples = new Float32Array(count);
    for (let i = 0; i < count; i++) samples[i] = table[codes[i] as number] as number;
    return { samples, ...plain };
  }
  if (wav.encoding === 'float') {
    return {
      samples: width === 4 ? new Float32Array(buffer, base, count) : new Float64Array(buffer, base, count),
      ...plain,
    };
  }
  if (width === 1)
    return { samples: new Uint8Array(buffer, base, count), ...plain, scale: 1 / 128, offset: 128 };
  if (width === 2) return { samples: new Int16Array(buffer, base, count), ...plain, scale: 1 / 32768 };
  if (width === 4) return { samples: new Int32Array(buffer, base, count), ...plain, scale: 1 / 2 ** 31 };
  return { samples: new Uint8Array(buffer, base, count * 3), ...plain, scale: 1 / 8388608, packed24: true };
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// The loops below are copies on purpose: each sees one array type, so V8 keeps each one monomorphic.
// Two accumulators, because a single running sum is bound by the latency of each addition.

function accumulateInt16(samples: Int16Array, out: Float32Array, perOut: number, gain: number): void {
  for (let o = 0, i = 0; o < out.length; o++) {
    let even = 0;
    let odd = 0;
    const end = i + perOut;
    for (; i + 1 < end; i += 2) {
      even += samples[i] as number;
      odd += samples[i + 1] as number;
    }
    if (i < end) even += samples[i++] as number;
    out[o] = (even + odd) * gain;
  }
}

function accumulateInt24(raw: Uint8Array, out: Float32Array, perOut: number, gain: number): void {
  for (let o = 0, j = 0; o < out.length; o++) {
    let sum = 0;
    for (const end = j + 3 * perOut; j < end; j += 3) {
      sum +=
        (((raw[j + 2] as number) << 24) | ((raw[j + 1] as number) << 16) | ((raw[j] as number) << 8)) >> 8;
    }
    out[o] = sum * gain;
  }
}

function accumulate(
  samples: ArrayLike<number>,
  out: Float32Array,
  perOut: number,
  gain: number,
  bias: number,
): void {
  for (let o = 0, i = 0; o < out.length; o++) {
    let even = 0;
    let odd = 0;
    const end = i + perOut;
    for (; i + 1 < end; i += 2) {
      even += samples[i] as number;
      odd += samples[i + 1] as number;
    }
    if (i < end) even += samples[i++] as number;
    out[o] = (even + odd - bias) * gain;
  }
}

/**
 * Decodes the samples of a WAV read by {@link readWav} into one mono channel (channels averaged),
 * averaging every `decimation` frames into one output sample: a cheap low-pass and downsample in one pass.
 *
 * @example
 * const read = readWav(bytes);
 * if (read.ok) { const mono = decodeWavMono(bytes, read.wav); }
 */
export function decodeWavMono(bytes: Uint8Array, wav: WavInfo, decimation = 1): Float32Array {
  if (!littleEndian) throw new Error('decodeWavMono needs a little-endian platform');
  const { samples, scale, offset, packed24 } = sampleArray(bytes, wav);
  const step = Math.max(1, Math.floor(decimation));
  const out = new Float32Array(Math.floor(wav.frames / step));
  const perOut = step * wav.channels;
  const gain = scale / perOut;
  if (packed24) accumulateInt24(samples as Uint8Array, out, perOut, gain);
  else if (samples instanceof Int16Array) accumulateInt16(samples, out, perOut, gain);
  else accumulate(samples, out, perOut, gain, offset * perOut);
  return out;
}
