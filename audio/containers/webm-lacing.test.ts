import { describe, expect, it } from 'vitest';
import { lacing, splitLaced } from './webm-lacing.js';

const frames = (split: Uint8Array[] | null) => split?.map((frame) => Array.from(frame)) ?? null;

describe('splitLaced', () => {
  it.each([
    ['no lacing: the payload is one frame', lacing.none, [1, 2, 3], [[1, 2, 3]]],
    [
      'Xiph: sizes 2 and 1, the last frame takes the rest',
      lacing.xiph,
      [2, 2, 1, 9, 9, 8, 7, 7],
      [[9, 9], [8], [7, 7]],
    ],
    [
      'Xiph: a size of 255 + 1 spans two bytes',
      lacing.xiph,
      [1, 255, 1, ...new Array<number>(256).fill(5), 6],
      [new Array<number>(256).fill(5), [6]],
    ],
    [
      'fixed-size: three frames of two',
      lacing.fixed,
      [2, 1, 1, 2, 2, 3, 3],
      [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    ],
    // EBML: first size 3 (0x83), second 3 - 1 = 2 (signed 1-byte difference 0xbe = 62 - 63 = -1).
    [
      'EBML: sizes 3, then 3 - 1, then the rest',
      lacing.ebml,
      [2, 0x83, 0xbe, 1, 1, 1, 2, 2, 3],
      [[1, 1, 1], [2, 2], [3]],
    ],
  ])('%s', (_name, mode, payload, expected) => {
    expect(frames(splitLaced(Uint8Array.from(payload), mode))).toEqual(expected);
  });

  it.each([
    ['Xiph sizes running past the payload', lacing.xiph, [1, 200, 1, 2]],
    ['Xiph sizes cut inside a 255 run', lacing.xiph, [1, 255]],
    ['fixed-size frames that do not divide the payload', lacing.fixed, [1, 1, 2, 3]],
    ['an EBML size that is no vint', lacing.ebml, [1, 0, 1, 2]],
    ['an EBML difference below zero', lacing.ebml, [2, 0x81, 0x80, 1, 1]],
    ['an empty laced payload', lacing.xiph, []],
  ])('refuses %s', (_name, mode, payload) => {
    expect(splitLaced(Uint8Array.from(payload), mode)).toBeNull();
  });
});
