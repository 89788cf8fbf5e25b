import { describe, expect, it } from 'vitest';
import { opusPacketSamples } from './opus-packet.js';

// TOC byte: configuration (5 bits), stereo flag, frame-count code (2 bits); RFC 6716 §3.1.
const toc = (config: number, code: number) => (config << 3) | code;

describe('opusPacketSamples', () => {
  it.each([
    ['SILK 10 ms, one frame', [toc(0, 0)], 480],
    ['SILK 60 ms, one frame', [toc(3, 0)], 2880],
    ['SILK 40 ms, two equal frames (code 1)', [toc(6, 1)], 3840],
    ['Hybrid 20 ms, one frame', [toc(13, 0)], 960],
    ['CELT 2.5 ms, one frame', [toc(16, 0)], 120],
    ['CELT 20 ms, one frame (what libopus writes by default)', [toc(31, 0), 0x00], 960],
    ['CELT 20 ms, two frames of different sizes (code 2)', [toc(31, 2), 1, 0, 0], 1920],
    ['CELT 5 ms, code 3 with 6 frames', [toc(17, 3), 6], 1440],
    ['code 3 without its frame-count byte', [toc(31, 3)], 0],
    ['code 3 with a frame count of 0 (invalid)', [0xff, 0x00], 0],
    ['an empty packet', [], 0],
  ])('%s → %i samples', (_name, packet, samples) => {
    expect(opusPacketSamples(Uint8Array.from(packet))).toBe(samples);
  });
});
