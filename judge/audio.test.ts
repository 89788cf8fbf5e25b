import { describe, expect, it } from 'vitest';
import { checkWav, readWavHead, silenceProblem } from './audio.js';

const text = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
const u16 = (n: number) => [n & 0xff, n >>> 8];

/** A 16-bit mono 8 kHz WAV of these samples, its fmt chunk cut to `fmtSize` bytes when given. */
function wav(samples: readonly number[], fmtSize = 16, magic = 'RIFF'): Uint8Array {
  const fmt = [...u16(1), ...u16(1), ...u32(8000), ...u32(16000), ...u16(2), ...u16(16)].slice(0, fmtSize);
  const data = samples.flatMap((v) => u16(v & 0xffff));
  const body = [
    ...text('WAVE'),
    ...text('fmt '),
    ...u32(fmt.length),
    ...fmt,
    ...text('data'),
    ...u32(data.length),
    ...data,
  ];
  return Uint8Array.from([...text(magic), ...u32(body.length), ...body]);
}

describe('the judge reads WAV heads through the audio library', () => {
  const loud = Array.from({ length: 40 }, (_, i) => (i % 2 ? 8000 : -8000));

  it('waits for the data chunk header, then reads the head', () => {
    const bytes = wav(loud);
    expect(readWavHead(bytes.subarray(0, 43))).toBeUndefined();
    expect(readWavHead(bytes.subarray(0, 44))).toEqual({
      riffSize: bytes.length - 8,
      dataOffset: 44,
      dataSize: 80,
      blockAlign: 2,
      byteRate: 16000,
    });
    expect(checkWav(bytes, false)).toEqual([]);
  });

  it('refuses RF64 as soon as the magic is there', () => {
    expect(readWavHead(wav(loud, 16, 'RF64').subarray(0, 12))).toMatch(/^not RIFF\/WAVE: starts with "RF64/);
  });

  it('names a fmt chunk shorter than 16 bytes instead of reading past it', () => {
    expect(checkWav(wav(loud, 14), false)).toEqual(['the fmt chunk is 14 bytes, shorter than 16']);
  });

  it('finds the samples of a 16-bit WAV for the silence check', () => {
    expect(silenceProblem(wav(loud), 'wav', null)).toBeUndefined();
    expect(silenceProblem(wav(loud.map(() => 3)), 'wav', null)).toMatch(/silent/);
  });
});
