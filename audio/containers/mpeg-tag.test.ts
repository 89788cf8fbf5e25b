import { describe, expect, it } from 'vitest';
import { mp3Stream, mpeg1Stereo, mpeg25Mono, type TagSpec } from '../test/mp3-frames.js';
import { readMpegTag } from './mpeg-tag.js';

describe('readMpegTag', () => {
  it.each<[string, typeof mpeg1Stereo, TagSpec, object]>([
    [
      'ffmpeg (libmp3lame) at 44.1 kHz: Info with all fields and a "Lavc" extension',
      mpeg1Stereo,
      { frames: 2298, encoder: 'Lavc59.37', delay: 576, padding: 720, allFields: true },
      { frames: 2298, delay: 576, padding: 720, samplesPerFrame: 1152, sampleRate: 44100 },
    ],
    [
      'LAME at 8 kHz mono (MPEG-2.5, 9 bytes of side information)',
      mpeg25Mono,
      { name: 'Xing', frames: 836, encoder: 'LAME3.100', delay: 576, padding: 960 },
      { frames: 836, delay: 576, padding: 960, samplesPerFrame: 576, sampleRate: 8000 },
    ],
    [
      'the largest delay and padding the 12-bit fields hold',
      mpeg1Stereo,
      { frames: 10, encoder: 'LAME3.99r', delay: 4095, padding: 4095 },
      { frames: 10, delay: 4095, padding: 4095 },
    ],
    [
      'Xing from an encoder whose extension ffmpeg does not trust: no delay or padding',
      mpeg1Stereo,
      { name: 'Xing', frames: 100, encoder: 'GOGO1.00', delay: 576, padding: 700 },
      { frames: 100, delay: 0, padding: 0 },
    ],
    [
      'Info without a frame count',
      mpeg1Stereo,
      { encoder: 'LAME3.100', delay: 576, padding: 700 },
      { frames: undefined, delay: 576, padding: 700 },
    ],
    ['Info with a frame count of 0 (says nothing)', mpeg25Mono, { frames: 0 }, { frames: undefined }],
    [
      'VBRI (Fraunhofer): a frame count only',
      mpeg25Mono,
      { name: 'VBRI', frames: 500 },
      { frames: 500, delay: 0 },
    ],
  ])('%s', (_name, kind, spec, expected) => {
    expect(readMpegTag(mp3Stream(kind, spec, 2), 0)).toMatchObject(expected);
  });

  it.each([
    ['an audio frame', mp3Stream(mpeg1Stereo, null, 2), 0],
    ['no frame at the offset', Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0]), 0],
    ['an offset past the end', mp3Stream(mpeg25Mono, { frames: 3 }, 1), 10_000],
  ])('is null for %s', (_name, bytes, at) => {
    expect(readMpegTag(bytes, at)).toBeNull();
  });
});
