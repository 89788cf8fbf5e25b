import { describe, expect, it } from 'vitest';
import { sniff } from '../containers/sniff.js';
import { type FrameKind, mp3Stream, mpeg1Stereo, mpeg25Mono, type TagSpec } from '../test/mp3-frames.js';
import { iTunSMPB, m4a, trak } from '../test/mp4-boxes.js';
import { analyze } from './analyze.js';
import { audioDuration } from './duration-by-container.js';

const lame = (frames: number, padding: number): TagSpec => ({
  frames,
  encoder: 'LAME3.100',
  delay: 576,
  padding,
});
const noHeader = { seconds: undefined, sampleRate: undefined };

describe('audioDuration: MP3 by its frames and LAME tag, as ffmpeg decodes it', () => {
  it.each<[string, FrameKind, TagSpec | null, number, number]>([
    // The tag values below are what ffmpeg's libmp3lame writes for these lengths.
    [
      '60.000 s at 8 kHz: 836 frames, 576 + 960 samples of priming and padding',
      mpeg25Mono,
      lame(836, 960),
      836,
      60,
    ],
    ['60.05 s at 8 kHz', mpeg25Mono, lame(836, 560), 836, 60.05],
    ['3.000 s at 8 kHz', mpeg25Mono, lame(44, 768), 44, 3],
    ['2.95 s at 8 kHz', mpeg25Mono, lame(44, 1168), 44, 2.95],
    [
      '60.000 s at 44.1 kHz (ffmpeg’s Info frame with all fields)',
      mpeg1Stereo,
      { frames: 2298, encoder: 'Lavc59.37', delay: 576, padding: 720, allFields: true },
      2298,
      60,
    ],
    [
      'a file cut after 100 of 836 frames: the priming stays, the padding is gone',
      mpeg25Mono,
      lame(836, 960),
      100,
      7.128,
    ],
    [
      'Xing without the LAME extension: every frame but the header frame',
      mpeg25Mono,
      { frames: 100 },
      100,
      7.2,
    ],
    ['VBRI: every frame but the header frame', mpeg25Mono, { name: 'VBRI', frames: 100 }, 100, 7.2],
    ['no header frame (lamejs writes none): every frame', mpeg25Mono, null, 100, 7.2],
  ])('%s → %s s', (_name, kind, spec, frames, seconds) => {
    const bytes = mp3Stream(kind, spec, frames);
    expect(audioDuration(bytes, sniff(bytes), noHeader)).toBeCloseTo(seconds, 9);
  });

  it('judges the verdict on that duration: 3.000 s and 60.000 s pass, 2.95 s and 60.05 s do not', async () => {
    const verdicts = [];
    for (const [frames, padding] of [
      [44, 1168],
      [44, 768],
      [836, 960],
      [836, 560],
    ] as const) {
      const analysis = await analyze(mp3Stream(mpeg25Mono, lame(frames, padding), frames));
      // Silent frames: a duration that passes ends at the speech check.
      verdicts.push(analysis.ok ? 'accepted' : analysis.verdict);
    }
    expect(verdicts).toEqual(['too-short', 'insufficient-speech', 'insufficient-speech', 'too-long']);
  });
});

describe('audioDuration: M4A by iTunSMPB, else its edit list, else its header', () => {
  const track = (...edits: [number, number][]) =>
    trak(
      'soun',
      { scale: 16000, duration: 49_024 },
      edits.length
        ? edits.map(([segmentDuration, mediaTime]) => ({ segmentDuration, mediaTime }))
        : undefined,
    );
  const header = { seconds: 3.064, sampleRate: 16000 };

  it.each([
    ['an edit list of 3000 ms after 1024 samples of priming', m4a(1000, track([3000, 1024])), 3],
    ['no edit list: the header (priming included)', m4a(1000, track()), 3.064],
    [
      'iTunSMPB of 47,200 samples over an edit list of 3000 ms',
      m4a(1000, track([3000, 1024]), iTunSMPB(' 00000000 00000400 00000310 000000000000B860')),
      2.95,
    ],
  ])('%s → %s s', (_name, bytes, seconds) => {
    expect(audioDuration(bytes, sniff(bytes), header)).toBeCloseTo(seconds, 9);
  });
});
