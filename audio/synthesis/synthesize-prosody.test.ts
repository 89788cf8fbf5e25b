import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SynthesisRequest, VoiceProfile } from '../types.js';
import { synthesize, synthesizeSamples, synthesizeToBytes } from './synthesize.js';
import { findSystemVoice, profileFromReference, systemVoices } from './voices.js';

const voice = findSystemVoice('system_default') as VoiceProfile;
const text = 'We walked along the river until the sun went down, talking about nothing in particular.';
const sha = (r: Partial<SynthesisRequest>): string =>
  createHash('sha256')
    .update(synthesizeToBytes({ text, voice, format: 'pcm', ...r }))
    .digest('hex');
const duration = (r: Partial<SynthesisRequest>): number =>
  synthesize({ text, voice, format: 'pcm', ...r }).durationSeconds;

/**
 * Per-frame pitch by normalised autocorrelation (30 ms frames, 60–450 Hz), over the loud frames only.
 * Deliberately naive and independent of the kit's analyser.
 */
function pitchTrack(samples: Int16Array, rate: number): number[] {
  const frame = Math.round(rate * 0.03);
  const energies: number[] = [];
  for (let at = 0; at + frame * 2 <= samples.length; at += frame) {
    let e = 0;
    for (let i = at; i < at + frame; i++) e += (samples[i] ?? 0) ** 2;
    energies.push(e);
  }
  const loud = Math.max(...energies) * 0.2;
  const track: number[] = [];
  for (const [k, energy] of energies.entries()) {
    if (energy < loud) continue;
    const at = k * frame;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(rate / 450); lag <= Math.ceil(rate / 60); lag++) {
      let xy = 0;
      let xx = 0;
      let yy = 0;
      for (let i = at; i < at + frame; i++) {
        const x = samples[i] ?? 0;
        const y = samples[i + lag] ?? 0;
        xy += x * y;
        xx += x * x;
        yy += y * y;
      }
      const r = xy / Math.sqrt(xx * yy || 1);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6) track.push(rate / bestLag);
  }
  return track;
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
const pitchOf = (r: Partial<SynthesisRequest>): number => {
  const { samples, sampleRate } = synthesizeSamples({ text, voice, ...r });
  return median(pitchTrack(samples, sampleRate));
};

describe('duration follows the text and the speed', () => {
  it('grows with the length of the text, roughly in proportion', () => {
    const sentence = 'The cat sat on the mat and looked at the door. ';
    const seconds = [1, 2, 4, 8].map((n) => duration({ text: sentence.repeat(n) }));
    for (let i = 1; i < seconds.length; i++) expect(seconds[i]).toBeGreaterThan(seconds[i - 1] ?? 0);
    const ratio = (seconds[3] ?? 0) / (seconds[0] ?? 1);
    expect(ratio).toBeGreaterThan(6.5);
    expect(ratio).toBeLessThan(9);
  });

  it.each([
    [2, 0.5],
    [0.5, 2],
    [4, 0.25],
  ])('speed %d makes it %d× as long (±15%%)', (speed, factor) => {
    const ratio = duration({ speed }) / duration({});
    expect(ratio).toBeGreaterThan(factor * 0.85);
    expect(ratio).toBeLessThan(factor * 1.15);
  });

  it.each([
    [0, undefined],
    [1, undefined],
    [10, 4],
    [0.1, 0.25],
  ])(
    'speed %d gives the same bytes as speed %s (0 is the default; the rate is clamped to 0.25..4)',
    (a, b) => {
      expect(sha({ speed: a })).toBe(sha({ speed: b }));
    },
  );

  it.each([
    ['CJK characters, one syllable each', '你好', '你好世界你好世界'],
    ['digits, spelled out', '7', '7777'],
    ['Cyrillic letters', 'да', 'до свидания'],
  ])('%s: more text, more time', (_, short, long) => {
    expect(duration({ text: long })).toBeGreaterThan(duration({ text: short }) * 1.5);
  });
});

describe('emotion and language', () => {
  it.each([
    ['happy', 'higher', 'shorter'],
    ['excited', 'higher', 'shorter'],
    ['angry', 'higher', 'shorter'],
    ['sad', 'lower', 'longer'],
    ['calm', 'lower', 'longer'],
  ] as const)('%s: different bytes, %s pitch, %s than neutral', (emotion, pitch, length) => {
    expect(sha({ emotion })).not.toBe(sha({ emotion: 'neutral' }));
    const pitchRatio = pitchOf({ emotion }) / pitchOf({ emotion: 'neutral' });
    expect(pitch === 'higher' ? pitchRatio > 1.02 : pitchRatio < 0.98).toBe(true);
    const lengthRatio = duration({ emotion }) / duration({ emotion: 'neutral' });
    expect(length === 'shorter' ? lengthRatio < 0.97 : lengthRatio > 1.03).toBe(true);
  });

  it.each([[undefined], ['NEUTRAL'], ['bogus']])('emotion %s sounds exactly like neutral', (emotion) => {
    expect(sha({ emotion })).toBe(sha({ emotion: 'neutral' }));
  });

  it('language shifts the rhythm; a region subtag does not matter', () => {
    expect(sha({ language: 'ja' })).not.toBe(sha({ language: 'en' }));
    expect(sha({ language: 'en-US' })).toBe(sha({ language: 'en' }));
  });

  it('a question ends higher than the same words as a statement', () => {
    const ending = (t: string): number => {
      const { samples, sampleRate } = synthesizeSamples({ text: t, voice });
      return median(pitchTrack(samples, sampleRate).slice(-3));
    };
    expect(ending('You are coming home tonight?')).toBeGreaterThan(
      ending('You are coming home tonight.') * 1.15,
    );
  });
});

describe('expression tags are never spoken', () => {
  it.each([['[foo]'], ['[ unknown tag ]'], ['[]']])('unknown tag %s is dropped without a trace', (tag) => {
    expect(
      sha({
        text: `We walked along the river ${tag} until the sun went down, talking about nothing in particular.`,
      }),
    ).toBe(sha({}));
  });

  it.each([
    ['pause', 0.4, 0.6],
    ['long pause', 0.9, 1.1],
    ['laugh', 0.4, 1.2],
    ['sigh', 0.5, 1.2],
    ['breath', 0.3, 0.8],
  ])('[%s] adds only its own sound or silence (%d–%d s)', (tag, min, max) => {
    const added =
      duration({
        text: `We walked along the river [${tag}] until the sun went down, talking about nothing in particular.`,
      }) - duration({});
    expect(added).toBeGreaterThan(min);
    expect(added).toBeLessThan(max);
  });

  /** Seconds of 10 ms frames whose peak passes 1 % of full scale: how long something is heard. */
  const audible = (r: Partial<SynthesisRequest>): number => {
    const { samples, sampleRate } = synthesizeSamples({ text, voice, ...r });
    const frame = Math.round(sampleRate * 0.01);
    let frames = 0;
    for (let at = 0; at < samples.length; at += frame) {
      let peak = 0;
      for (let i = at; i < Math.min(samples.length, at + frame); i++)
        peak = Math.max(peak, Math.abs(samples[i] ?? 0));
      if (peak > 328) frames++;
    }
    return frames * 0.01;
  };

  it.each([
    ['laugh', 0.4, 1],
    ['Laughs', 0.4, 1],
    ['sigh', 0.4, 1],
    ['breath', 0.2, 0.6],
  ])('[%s] as the whole text makes the sound it makes inside a sentence (%d–%d s heard)', (tag, min, max) => {
    const alone = audible({ text: `[${tag}]` });
    const added = audible({ text: `Ha [${tag}] ha.` }) - audible({ text: 'Ha ha.' });
    expect(alone).toBeGreaterThan(min);
    expect(alone).toBeLessThan(max);
    expect(Math.abs(alone - added)).toBeLessThan(0.15);
    expect(sha({ text: `[${tag}]` })).toBe(sha({ text: `[${tag}]` }));
  });

  it('[pause] and [long pause] as the whole text are silences of their own length, not the 0.3 s of empty text', () => {
    const pause = synthesizeSamples({ text: '[pause]', voice });
    const long = synthesizeSamples({ text: '[long pause]', voice });
    expect(pause.samples.every((sample) => sample === 0)).toBe(true);
    expect(long.samples.every((sample) => sample === 0)).toBe(true);
    expect(duration({ text: '[pause]' })).toBeGreaterThan(0.3 + 0.5);
    expect(duration({ text: '[long pause]' }) - duration({ text: '[pause]' })).toBeCloseTo(0.5, 2);
  });

  it('[whisper] keeps the timing but removes the voicing until the sentence ends', () => {
    const whispered = { text: `[whisper] ${text}` };
    expect(duration(whispered) / duration({})).toBeCloseTo(1, 1);
    const { samples, sampleRate } = synthesizeSamples({ ...whispered, voice });
    const voiced = synthesizeSamples({ text, voice });
    expect(pitchTrack(samples, sampleRate).length).toBeLessThan(
      pitchTrack(voiced.samples, voiced.sampleRate).length / 4,
    );
  });
});

describe('voices', () => {
  it('each system voice speaks near its own pitch, and they differ in the right order', () => {
    const sorted = [...systemVoices].sort((a, b) => a.pitchHz - b.pitchHz);
    const measured = sorted.map((v) => pitchOf({ voice: v }));
    for (const [i, v] of sorted.entries()) {
      expect(measured[i]).toBeGreaterThan(v.pitchHz * 0.85);
      expect(measured[i]).toBeLessThan(v.pitchHz * 1.2);
      if (i > 0) expect(measured[i]).toBeGreaterThan(measured[i - 1] ?? 0);
    }
    expect(new Set(systemVoices.map((v) => sha({ voice: v }))).size).toBe(systemVoices.length);
  });

  it('a custom voice follows its reference: a low recording speaks low, a high one high', () => {
    const low = profileFromReference('deep_narrator', { pitchHz: 90 }, 1);
    const high = profileFromReference('bright_host', { pitchHz: 260 }, 1);
    expect(low.formantScale).toBeLessThan(high.formantScale);
    const lowPitch = pitchOf({ voice: low });
    const highPitch = pitchOf({ voice: high });
    expect(lowPitch).toBeGreaterThan(90 * 0.85);
    expect(lowPitch).toBeLessThan(90 * 1.2);
    expect(highPitch).toBeGreaterThan(260 * 0.85);
    expect(highPitch).toBeLessThan(260 * 1.2);
  });

  it.each([
    [null, 100, 240],
    [20, 60, 60],
    [1000, 400, 400],
  ])('measured pitch %s gives a deterministic profile between %d and %d Hz', (pitchHz, min, max) => {
    const profile = profileFromReference('my_voice', { pitchHz }, 42);
    expect(profileFromReference('my_voice', { pitchHz }, 42)).toEqual(profile);
    expect(profile.pitchHz).toBeGreaterThanOrEqual(min);
    expect(profile.pitchHz).toBeLessThanOrEqual(max);
    expect(profile.id).toBe('my_voice');
  });
});
