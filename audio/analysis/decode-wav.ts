/**
 * The samples of a WAV file whose header `readWav` (containers/wav-riff.ts) read, as one mono channel:
 * PCM of 8 to 32 bits, float and G.711 (A-law, µ-law), averaged over channels and decimated in one pass.
 */

import type { WavInfo } from '../containers/wav-riff.js';

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
