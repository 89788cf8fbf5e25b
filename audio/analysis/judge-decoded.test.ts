import { describe, expect, it } from 'vitest';
import { speechLike } from '../test/signals.js';
import { judgeDecoded } from './judge-decoded.js';
import type { MonoSignal } from './mono-collector.js';

const rate = 4000;
const signalOf = (seconds: number): MonoSignal => ({
  samples: speechLike({ seconds, sampleRate: rate }),
  sampleRate: rate,
  sourceRate: 48000,
  seconds,
});
const judge = (statedSeconds: number, decodedSeconds: number) =>
  judgeDecoded(
    {
      container: 'ogg',
      codec: 'opus',
      sampleRate: 48000,
      channels: 1,
      statedSeconds,
      signal: signalOf(decodedSeconds),
      described: 'the reference audio is an Ogg file with Opus',
    },
    {},
  );

describe('judgeDecoded', () => {
  it.each([
    ['decodes to 5 s of the 7.6 s stated: corrupt', 7.6, 5, 'unsupported', undefined],
    ['decodes to 7.5 s of 7.6 s: the header stands', 7.6, 7.5, 'accepted', 7.6],
    ['decodes 0.6 s past the header (a cut last page): the header stands', 7.6, 8.2, 'accepted', 7.6],
    ['decodes to 20 s though the header states 5 s: 20 s is judged', 5, 20, 'accepted', 20],
    ['decodes to 60.5 s though the header states 50 s: too-long', 50, 60.5, 'too-long', 60.5],
    ['decodes to 60.5 s of 59.9 s stated: within the slack', 59.9, 60.5, 'accepted', 59.9],
    ['decoding stopped at the cap (62 s) with 5 s stated: too-long', 5, 62, 'too-long', 62],
  ])('%s', (_name, stated, decoded, verdict, duration) => {
    const analysis = judge(stated, decoded);
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(verdict);
    expect(analysis.durationSeconds).toBe(duration);
  });

  it('analyses no more audio than the duration it reports', () => {
    const analysis = judge(4, 4.9);
    if (!analysis.ok) throw new Error(analysis.reason);
    expect(analysis.speechSeconds).toBeLessThanOrEqual(4);
    expect(analysis.speechFraction).toBeLessThanOrEqual(1);
  });

  it('names the file and both durations when refusing', () => {
    expect(judge(7.6, 5)).toMatchObject({
      reason:
        'the reference audio is an Ogg file with Opus that is corrupt: it decodes to 5.00 s of the 7.60 s its header states',
    });
    expect(judge(5, 62)).toMatchObject({
      reason: expect.stringMatching(/more than 60 s although its header states 5\.00 s/),
    });
  });
});
