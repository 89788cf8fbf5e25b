/**
 * Test signals and WAV and MP3 writers for the analysis tests. Deliberately independent of the
 * synthesizer and of `synthesis/wav-encode.ts`/`synthesis/mp3-encode.ts` so that the analyser is not tested against the code it will
 * judge.
 */

import { Mp3Encoder } from '@breezystack/lamejs';

/** Mulberry32: a small seeded generator, so every test signal is the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One period of a voiced source: harmonics falling at 6 dB per octave, with a bump near 500 Hz-ish. */
const voicedTable = (() => {
  const table = new Float32Array(2049);
  for (let i = 0; i <= 2048; i++) {
    let value = 0;
    for (let k = 1; k <= 12; k++)
      value += (Math.sin((2 * Math.PI * k * i) / 2048) * (k === 3 || k === 4 ? 1.5 : 1)) / k;
    table[i] = value / 2.2;
  }
  return table;
})();

export interface SpeechLikeOptions {
  readonly seconds: number;
  readonly sampleRate: number;
  readonly seed?: number;
  readonly pitchHz?: number;
  readonly syllablesPerSecond?: number;
  /** Peak amplitude, 0..1. */
  readonly level?: number;
}

/**
 * A speech-like signal: voiced syllables (harmonics, a moving pitch, a rise-and-fall envelope) at 3–6
 * syllables per second, short gaps between syllables and longer ones between words.
 */
export function speechLike(options: SpeechLikeOptions): Float32Array {
  const { seconds, sampleRate, seed = 1, pitchHz = 140, syllablesPerSecond = 4.5, level = 0.5 } = options;
  const random = seeded(seed);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  let at = 0;
  let phase = 0;
  let syllable = 0;
  while (at < out.length) {
    const length = Math.round(sampleRate * (0.6 / syllablesPerSecond) * (0.8 + 0.4 * random()));
    const rise = 0.06 * (random() - 0.5);
    for (let i = 0; i < length && at + i < out.length; i++) {
      const t = (at + i) / sampleRate;
      const f0 = pitchHz * (1 + 0.08 * Math.sin(2 * Math.PI * 0.6 * t) + (rise * i) / length);
      phase = (phase + f0 / sampleRate) % 1;
      const envelope = Math.sin((Math.PI * i) / length) ** 0.6;
      const position = phase * 2048;
      const low = Math.floor(position);
      const sample =
        (voicedTable[low] as number) +
        ((voicedTable[low + 1] as number) - (voicedTable[low] as number)) * (position - low);
      out[at + i] = level * envelope * sample;
    }
    syllable++;
    const gap = syllable % 4 === 0 ? 0.15 + 0.1 * random() : (0.4 / syllablesPerSecond) * (0.5 + random());
    at += length + Math.round(gap * sampleRate);
  }
  return out;
}

export const silence = (seconds: number, sampleRate: number): Float32Array =>
  new Float32Array(Math.round(seconds * sampleRate));

/** White or pink noise (Paul Kellet's economy filter) at an RMS level in dB relative to full scale. */
export function noise(
  seconds: number,
  sampleRate: number,
  levelDb: number,
  color: 'white' | 'pink',
  seed = 7,
): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(Math.round(seconds * sampleRate));
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < out.length; i++) {
    const white = random() * 2 - 1;
    if (color === 'white') out[i] = white;
    else {
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = b0 + b1 + b2 + white * 0.1848;
    }
  }
  let energy = 0;
  for (const value of out) energy += value * value;
  const gain = 10 ** (levelDb / 20) / Math.sqrt(energy / Math.max(1, out.length));
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) * gain;
  return out;
}

/** A steady tone: a sine, or a hum with harmonics of a mains frequency. */
export function tone(
  seconds: number,
  sampleRate: number,
  hz: number,
  amplitude: number,
  harmonics = 1,
): Float32Array {
  const out = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < out.length; i++) {
    let value = 0;
    for (let k = 1; k <= harmonics; k++) value += Math.sin((2 * Math.PI * hz * k * i) / sampleRate) / k;
    out[i] = amplitude * value;
  }
  return out;
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function mix(a: Float32Array, b: Float32Array): Float32Array {
  return a.map((value, i) => value + (b[i] ?? 0));
}

export interface WavWriteOptions {
  readonly sampleRate: number;
  readonly encoding?: 'pcm' | 'float';
  readonly bits?: 8 | 16 | 24 | 32 | 64;
  readonly extensible?: boolean;
  /** Chunks written between fmt and data, e.g. LIST or fact. */
  readonly chunks?: ReadonlyArray<{ readonly id: string; readonly body: Uint8Array }>;
  /** Overrides of the size fields, for streamed or corrupt headers. */
  readonly riffSize?: number;
  readonly dataSize?: number;
}

/** Writes channels (one Float32Array each, same length) as a WAV file. */
export function writeWav(channels: readonly Float32Array[], options: WavWriteOptions): Uint8Array {
  const { sampleRate, encoding = 'pcm', bits = 16, extensible = false, chunks = [] } = options;
  const frames = channels[0]?.length ?? 0;
  const width = bits / 8;
  const dataBytes = frames * channels.length * width;
  const fmtSize = extensible ? 40 : 16;
  const extra = chunks.reduce((sum, chunk) => sum + 8 + chunk.body.length + (chunk.body.length & 1), 0);
  const total = 12 + 8 + fmtSize + extra + 8 + dataBytes;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  const tag = encoding === 'float' ? 3 : 1;
  text(0, 'RIFF');
  view.setUint32(4, options.riffSize ?? total - 8, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, extensible ? 0xfffe : tag, true);
  view.setUint16(22, channels.length, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels.length * width, true);
  view.setUint16(32, channels.length * width, true);
  view.setUint16(34, bits, true);
  if (extensible) {
    view.setUint16(36, 22, true);
    view.setUint16(38, bits, true);
    view.setUint32(40, channels.length === 2 ? 3 : 4, true);
    // KSDATAFORMAT_SUBTYPE GUID: format tag, then the fixed tail 00000010-8000-00aa00389b71.
    bytes.set([tag, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71], 44);
  }
  let at = 20 + fmtSize;
  for (const chunk of chunks) {
    text(at, chunk.id);
    view.setUint32(at + 4, chunk.body.length, true);
    bytes.set(chunk.body, at + 8);
    at += 8 + chunk.body.length + (chunk.body.length & 1);
  }
  text(at, 'data');
  view.setUint32(at + 4, options.dataSize ?? dataBytes, true);
  at += 8;
  for (let i = 0; i < frames; i++) {
    for (const channel of channels) {
      const value = Math.max(-1, Math.min(1, channel[i] as number));
      if (encoding === 'float' && bits === 32) view.setFloat32(at, value, true);
      else if (encoding === 'float') view.setFloat64(at, value, true);
      else if (bits === 8) view.setUint8(at, Math.round(value * 127) + 128);
      else if (bits === 16) view.setInt16(at, Math.round(value * 32767), true);
      else if (bits === 24) {
        const int = Math.round(value * 8388607);
        view.setUint16(at, int & 0xffff, true);
        view.setInt8(at + 2, int >> 16);
      } else view.setInt32(at, Math.round(value * 2147483647), true);
      at += width;
    }
  }
  return bytes;
}

/** A hand-made WAV with the given format tag and sample bytes (G.711 and odd formats). */
export function rawWav(tag: number, bits: number, samples: number[], channels = 1): Uint8Array {
  const header = new Uint8Array(44 + samples.length);
  const view = new DataView(header.buffer);
  header.set(
    [...'RIFF'].map((c) => c.charCodeAt(0)),
    0,
  );
  view.setUint32(4, 36 + samples.length, true);
  header.set(
    [...'WAVEfmt '].map((c) => c.charCodeAt(0)),
    8,
  );
  view.setUint32(16, 16, true);
  view.setUint16(20, tag, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000 * channels * (bits / 8), true);
  view.setUint16(32, channels * (bits / 8), true);
  view.setUint16(34, bits, true);
  header.set(
    [...'data'].map((c) => c.charCodeAt(0)),
    36,
  );
  view.setUint32(40, samples.length, true);
  header.set(samples, 44);
  return header;
}

/** A mono 16-bit WAV of the given samples. */
export const monoWav = (samples: Float32Array, sampleRate: number): Uint8Array =>
  writeWav([samples], { sampleRate });

const toInt16 = (samples: Float32Array): Int16Array =>
  Int16Array.from(samples, (value) => Math.round(Math.max(-1, Math.min(1, value)) * 32767));

/**
 * Encodes channels as an MP3 with the LAME port (no Xing header, so a decoder keeps LAME's delay and
 * padding), so that tests of the decoded path need no committed file.
 */
export function writeMp3(channels: readonly Float32Array[], sampleRate: number, kbps = 64): Uint8Array {
  const encoder = new Mp3Encoder(channels.length, sampleRate, kbps);
  const [left = new Int16Array(0), right] = channels.map(toInt16);
  // Copied before flushing: the encoder may hand out a view of a buffer it reuses.
  const body = Uint8Array.from(encoder.encodeBuffer(left, right));
  const tail = encoder.flush();
  const out = new Uint8Array(body.length + tail.length);
  out.set(body);
  out.set(tail, body.length);
  return out;
}
