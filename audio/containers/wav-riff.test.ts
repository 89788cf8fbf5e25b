import { describe, expect, it } from 'vitest';
import { rawWav, seeded, writeWav } from '../test/signals.js';
import { readWav, type WavInfo } from './wav-riff.js';

const ramp = (length: number): Float32Array => Float32Array.from({ length }, (_, i) => 0.9 * Math.sin(i / 7));

function read(bytes: Uint8Array): WavInfo {
  const result = readWav(bytes);
  if (!result.ok) throw new Error(`expected a readable WAV: ${result.reason}`);
  return result.wav;
}

describe('readWav', () => {
  const signal = ramp(1000);
  it.each([
    ['0xFFFFFFFF sizes (streamed by ffmpeg)', 0xffffffff, 0xffffffff],
    ['0 sizes (streamed)', 0, 0],
    ['a 0 data size under a 0x7FFFFFFF RIFF size (streamed)', 0, 0x7fffffff],
    ['a data size larger than the file', 1_000_000, undefined],
  ])('clamps %s to the bytes present', (_name, dataSize, riffSize) => {
    const bytes = writeWav([signal], {
      sampleRate: 8000,
      bits: 16,
      dataSize,
      ...(riffSize === undefined ? {} : { riffSize }),
    });
    const wav = read(bytes);
    expect(wav.frames).toBe(1000);
    expect(wav.clamped).toBe(true);
  });

  it('counts only whole frames when the data ends mid-frame', () => {
    const bytes = writeWav([signal, signal], { sampleRate: 8000, bits: 24 });
    expect(read(bytes.subarray(0, bytes.length - 4)).frames).toBe(999);
  });

  const valid = writeWav([signal], { sampleRate: 8000, bits: 16 });
  const noise = (() => {
    const next = seeded(9);
    return Uint8Array.from({ length: 500 }, () => Math.floor(next() * 256));
  })();
  const riffHeader = valid.subarray(0, 12);
  const withoutData = valid.subarray(0, 36);
  const corruptChunk = new Uint8Array([
    ...riffHeader,
    ...'JUNK'.split('').map((c) => c.charCodeAt(0)),
    0xff,
    0xff,
    0xff,
    0x7f,
    1,
    2,
    3,
  ]);
  it.each([
    ['8 bytes', valid.subarray(0, 8), /truncated/],
    ['the RIFF header alone', riffHeader, /no readable fmt/],
    ['a fmt chunk cut short', valid.subarray(0, 24), /fmt chunk is truncated/],
    ['no data chunk', withoutData, /no data chunk/],
    [
      'garbage after the RIFF header',
      new Uint8Array([...riffHeader, ...noise]),
      /chunk runs past|no readable fmt/,
    ],
    ['a chunk larger than the file before fmt', corruptChunk, /runs past the end/],
    ['ADPCM (format tag 2)', rawWav(2, 4, [1, 2, 3, 4]), /format tag 0x2/],
    ['12-bit PCM', rawWav(1, 12, [1, 2, 3]), /12-bit pcm/],
    ['0 channels', rawWav(1, 16, [1, 2], 0), /0 channels/],
  ])('refuses %s', (_name, bytes, reason) => {
    const result = readWav(bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
