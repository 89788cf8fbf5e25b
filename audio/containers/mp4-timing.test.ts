import { describe, expect, it } from 'vitest';
import { box, iTunSMPB, m4a, timeHeader, trak } from '../test/mp4-boxes.js';
import { itunesSampleCount } from './mp4-itunes-smpb.js';
import { type Mp4Timing, mp4Seconds, readMp4Timing } from './mp4-timing.js';

// What ffmpeg writes for 60.000 s of AAC at 44.1 kHz: movie time in ms, 1024 samples of priming.
const ffmpeg60 = { scale: 44100, duration: 2_647_024 };

describe('readMp4Timing', () => {
  it.each<[string, Uint8Array, Mp4Timing | null]>([
    [
      'ffmpeg: mvhd in ms, the sound track with an edit list',
      m4a(1000, trak('soun', ffmpeg60, [{ segmentDuration: 60_000, mediaTime: 1024 }])),
      {
        movieScale: 1000,
        mediaScale: 44100,
        mediaDuration: 2_647_024,
        edits: [{ segmentDuration: 60_000, mediaTime: 1024 }],
      },
    ],
    [
      'version 1 boxes (64-bit times) and an empty edit before the audio',
      m4a(
        48000,
        trak(
          'soun',
          { scale: 48000, duration: 2_882_112, version: 1 },
          [
            { segmentDuration: 4800, mediaTime: -1 },
            { segmentDuration: 2_880_000, mediaTime: 2112 },
          ],
          1,
        ),
      ),
      {
        movieScale: 48000,
        mediaScale: 48000,
        mediaDuration: 2_882_112,
        edits: [
          { segmentDuration: 4800, mediaTime: -1 },
          { segmentDuration: 2_880_000, mediaTime: 2112 },
        ],
      },
    ],
    [
      'the sound track after a video track, without an edit list',
      m4a(
        600,
        trak('vide', { scale: 90000, duration: 900_000 }),
        trak('soun', { scale: 16000, duration: 49_024 }),
      ),
      { movieScale: 600, mediaScale: 16000, mediaDuration: 49_024, edits: [] },
    ],
    ['no sound track', m4a(1000, trak('vide', { scale: 90000, duration: 900_000 })), null],
    ['no moov box', Uint8Array.from(box('ftyp', [77, 52, 65, 32])), null],
    [
      'a moov box cut before its mvhd',
      Uint8Array.from(box('moov', timeHeader('mvhd', 1000, 0)).slice(0, 20)),
      null,
    ],
  ])('%s', (_name, bytes, expected) => {
    expect(readMp4Timing(bytes)).toEqual(expected);
  });
});

describe('mp4Seconds: the real length of the sound track', () => {
  const timing = (movieScale: number, mediaDuration: number, ...edits: [number, number][]): Mp4Timing => ({
    movieScale,
    mediaScale: 44100,
    mediaDuration,
    edits: edits.map(([segmentDuration, mediaTime]) => ({ segmentDuration, mediaTime })),
  });

  it.each<[string, Mp4Timing, number | undefined]>([
    ['ffmpeg, 60.000 s (mdhd holds 60.023 s)', timing(1000, 2_647_024, [60_000, 1024]), 60],
    [
      'ffmpeg, 60.05 s: the ms edit says 60.051, the media 60.050',
      timing(1000, 2_649_229, [60_051, 1024]),
      60.05,
    ],
    ['ffmpeg, 3.000 s', timing(1000, 133_324, [3000, 1024]), 3],
    ['ffmpeg, 2.95 s: the ms edit says 2.951, the media 2.950', timing(1000, 131_119, [2951, 1024]), 2.95],
    ['Apple: edit in samples, padding left in the media', timing(44100, 2_650_112, [2_646_000, 2112]), 60],
    ['an empty edit (a delay) holds no audio', timing(1000, 2_647_024, [500, -1], [60_000, 1024]), 60],
    ['a segment duration of 0: the rest of the media', timing(1000, 2_647_024, [0, 1024]), 60],
    ['no media duration (fragmented): the edit alone', timing(1000, 0, [60_000, 1024]), 60],
    ['no edit list: nothing to say', timing(1000, 2_647_024), undefined],
    ['only an empty edit', timing(1000, 2_647_024, [500, -1]), undefined],
    ['a movie timescale of 0', timing(0, 2_647_024, [60_000, 1024]), undefined],
  ])('%s → %s s', (_name, input, seconds) => {
    const result = mp4Seconds(input);
    if (seconds === undefined) expect(result).toBeUndefined();
    else expect(result).toBeCloseTo(seconds, 9);
  });
});

describe('itunesSampleCount', () => {
  it.each([
    [
      'Apple’s iTunSMPB for 60.000 s at 44.1 kHz',
      ' 00000000 00000840 000001D0 0000000000285FF0 00000000',
      2_646_000,
    ],
    ['no original sample count', ' 00000000 00000840 000001D0', undefined],
    ['a count of 0', ' 00000000 00000840 000001D0 0000000000000000', undefined],
  ])('%s', (_name, value, samples) => {
    expect(itunesSampleCount(m4a(1000, trak('soun', ffmpeg60), iTunSMPB(value)))).toBe(samples);
  });

  it('is undefined without the item', () => {
    expect(itunesSampleCount(m4a(1000, trak('soun', ffmpeg60)))).toBeUndefined();
  });
});
