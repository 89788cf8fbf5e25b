import { describe, expect, it } from 'vitest';
import { readWav, type WavInfo } from '../containers/wav-riff.js';
import { rawWav, writeWav } from '../test/signals.js';
import { decodeWavMono } from './decode-wav.js';

const ramp = (length: number): Float32Array => Float32Array.from({ length }, (_, i) => 0.9 * Math.sin(i / 7));

function read(bytes: Uint8Array): WavInfo {
  const result = readWav(bytes);
  if (!result.ok) throw new Error(`expected a readable WAV: ${result.reason}`);
  return result.wav;
}

function maxError(a: Float32Array, b: Float32Array): number {
  let error = 0;
  for (let i = 0; i < a.length; i++) error = Math.max(error, Math.abs((a[i] as number) - (b[i] as number)));
  return error;
}

describe('decodeWavMono', () => {
  const signal = ramp(1000);
  it.each([
    ['pcm', 8, false, 'pcm_u8', 1 / 50],
    ['pcm', 16, false, 'pcm_s16le', 1 / 10000],
    ['pcm', 24, false, 'pcm_s24le', 1e-6],
    ['pcm', 32, false, 'pcm_s32le', 1e-6],
    ['float', 32, false, 'pcm_f32le', 1e-7],
    ['float', 64, false, 'pcm_f64le', 1e-7],
    ['pcm', 16, true, 'extensible s16', 1 / 10000],
    ['pcm', 24, true, 'extensible s24', 1e-6],
    ['float', 32, true, 'extensible f32', 1e-7],
  ] as const)(
    '%s %i-bit (extensible: %s, %s) decodes within quantisation',
    (encoding, bits, extensible, _name, tolerance) => {
      const bytes = writeWav([signal], { sampleRate: 16000, encoding, bits, extensible });
      const wav = read(bytes);
      expect(wav).toMatchObject({
        encoding,
        bitsPerSample: bits,
        sampleRate: 16000,
        channels: 1,
        frames: 1000,
        clamped: false,
      });
      expect(wav.durationSeconds).toBe(1000 / 16000);
      expect(maxError(decodeWavMono(bytes, wav), signal)).toBeLessThan(tolerance);
    },
  );

  it('mixes stereo down to the mean of the channels', () => {
    const right = signal.map((value) => value * 0.5);
    const bytes = writeWav([signal, right], { sampleRate: 48000, bits: 16 });
    const wav = read(bytes);
    expect(wav.channels).toBe(2);
    expect(
      maxError(
        decodeWavMono(bytes, wav),
        signal.map((value) => value * 0.75),
      ),
    ).toBeLessThan(1e-4);
  });

  it('averages every `decimation` frames into one sample', () => {
    const bytes = writeWav([signal], { sampleRate: 48000, encoding: 'float', bits: 32 });
    const mono = decodeWavMono(bytes, read(bytes), 6);
    expect(mono.length).toBe(Math.floor(1000 / 6));
    const expected =
      ((signal[6] as number) +
        (signal[7] as number) +
        (signal[8] as number) +
        (signal[9] as number) +
        (signal[10] as number) +
        (signal[11] as number)) /
      6;
    expect(mono[1]).toBeCloseTo(expected, 6);
  });

  it('decodes from a Uint8Array that is a view at an odd offset of a larger buffer', () => {
    const bytes = writeWav([signal], { sampleRate: 8000, bits: 16 });
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes, 1);
    const view = padded.subarray(1);
    expect(maxError(decodeWavMono(view, read(view)), signal)).toBeLessThan(1 / 10000);
  });

  it('skips LIST and fact chunks before the data and unknown chunks after it', () => {
    const list = { id: 'LIST', body: new TextEncoder().encode('INFOISFT\x05\0\0\0odd!\0') };
    const fact = { id: 'fact', body: new Uint8Array([0xe8, 3, 0, 0]) };
    const bytes = writeWav([signal], { sampleRate: 8000, bits: 16, chunks: [list, fact] });
    const withCue = new Uint8Array(bytes.length + 12);
    withCue.set(bytes);
    withCue.set(
      [...'cue ', 4, 0, 0, 0, 0, 0, 0, 0].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)),
      bytes.length,
    );
    const wav = read(withCue);
    expect(wav.chunks).toEqual(['fmt ', 'LIST', 'fact', 'data', 'cue ']);
    expect(wav.frames).toBe(1000);
    expect(maxError(decodeWavMono(withCue, wav), signal)).toBeLessThan(1 / 10000);
  });

  it('reads RF64: the data size comes from the ds64 chunk', () => {
    const ds64 = new Uint8Array(28);
    const view = new DataView(ds64.buffer);
    view.setUint32(8, 2000, true); // data size, low 32 bits: 1000 frames of 16-bit mono
    const bytes = writeWav([signal], {
      sampleRate: 8000,
      chunks: [{ id: 'ds64', body: ds64 }],
      riffSize: 0xffffffff,
      dataSize: 0xffffffff,
    });
    bytes.set([0x52, 0x46, 0x36, 0x34], 0); // 'RF64'
    const trailing = new Uint8Array(bytes.length + 10);
    trailing.set(bytes);
    const wav = read(trailing);
    expect(wav).toMatchObject({ frames: 1000, clamped: false });
    expect(maxError(decodeWavMono(trailing, wav), signal)).toBeLessThan(1 / 10000);
  });

  it.each([
    ['µ-law', 7, [0xff, 0x80, 0x00], [0, 32124 / 32768, -32124 / 32768]],
    ['A-law', 6, [0xd5, 0x55, 0xaa], [8 / 32768, -8 / 32768, 32256 / 32768]],
  ])('decodes %s', (_name, tag, codes, expected) => {
    const bytes = rawWav(tag, 8, codes);
    const wav = read(bytes);
    expect(wav.encoding).toBe(tag === 7 ? 'mulaw' : 'alaw');
    expect(Array.from(decodeWavMono(bytes, wav))).toEqual(expected.map((value) => Math.fround(value)));
  });
});
