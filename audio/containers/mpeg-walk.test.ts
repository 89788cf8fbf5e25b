import { describe, expect, it } from 'vitest';
import { seeded } from '../test/signals.js';
import { walkMpegFrames } from './mpeg-walk.js';
import { sniff } from './sniff.js';

// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: 417-byte frames of 1152 samples.
const frame = (): number[] => [0xff, 0xfb, 0x90, 0x64, ...new Array<number>(413).fill(0)];
const frames = (n: number): number[] => Array.from({ length: n }, frame).flat();
const random = (n: number): number[] => {
  const next = seeded(5);
  return Array.from({ length: n }, () => Math.floor(next() * 256));
};
const id3 = [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 20, ...new Array<number>(20).fill(0)];
const id3v1 = [0x54, 0x41, 0x47, ...new Array<number>(125).fill(0x20)];
const perFrame = 1152 / 44100;

describe('walkMpegFrames', () => {
  it.each([
    ['100 frames', frames(100), 100, 1],
    ['an ID3v2 tag, then 100 frames', [...id3, ...frames(100)], 100, 1],
    ['100 frames and an ID3v1 tag', [...frames(100), ...id3v1], 100, 0.99],
    [
      'frames, 500 bytes of junk, frames (decoders resynchronise)',
      [...frames(50), ...random(500), ...frames(50)],
      100,
      0.97,
    ],
    ['frames cut inside the last one', frames(100).slice(0, 417 * 100 - 200), 99, 0.99],
  ])('%s', (_name, input, count, minShare) => {
    const bytes = Uint8Array.from(input);
    const walk = walkMpegFrames(bytes, sniff(bytes).audioOffset);
    expect(walk.frames).toBe(count);
    expect(walk.seconds).toBeCloseTo(count * perFrame, 9);
    expect(walk.frameShare).toBeGreaterThanOrEqual(minShare);
  });

  it('finds almost no frames in 2 frames followed by 50 kB of random bytes', () => {
    const bytes = Uint8Array.from([...frames(2), ...random(50_000)]);
    const walk = walkMpegFrames(bytes, 0);
    // A random header with the stream's exact bits is possible (about 1 in 300,000 positions), not more.
    expect(walk.frames).toBeGreaterThanOrEqual(2);
    expect(walk.frames).toBeLessThan(6);
    expect(walk.frameShare).toBeLessThan(0.1);
  });
});
