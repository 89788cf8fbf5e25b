import { describe, expect, it } from 'vitest';
import type { VoiceProfile } from '../types.js';
import { SynthesisCaches } from './caches.js';
import { planLazily, planUtterance } from './plan.js';
import { Renderer } from './render.js';
import { synthesize } from './synthesize.js';
import { systemVoices } from './voices.js';

const voice = systemVoices[0] as VoiceProfile;

function rendered(plan: ReturnType<typeof planUtterance>): Int16Array {
  const samples = new Int16Array(plan.totalSamples);
  const renderer = new Renderer(plan);
  // Uneven pieces, as a stream pulls them, so phrase boundaries fall inside and between calls.
  for (let at = 0; at < samples.length; at += 977) {
    renderer.render(samples, at, Math.min(977, samples.length - at));
  }
  return samples;
}

describe('planLazily', () => {
  it.each([
    ['empty', ''],
    ['tags only', '[laugh] [pause]'],
    ['one word', 'Hello'],
    ['phrases and tags', 'Hello there, friend! [sigh] Are you well? [whisper] Quietly now. Done.'],
    ['CJK', '你好，世界。こんにちは'],
    ['long', 'The quick brown fox jumps over the lazy dog. '.repeat(10)],
  ])('%s: the same size up front and the same samples as the whole plan', (_name, text) => {
    const request = { text, voice, format: 'pcm' as const, emotion: 'happy' };
    const whole = planUtterance(request, 24_000);
    const lazy = planLazily(request, 24_000);
    expect(lazy.totalSamples).toBe(whole.totalSamples);
    const [a, b] = [rendered(lazy), rendered(whole)];
    expect(Buffer.compare(Buffer.from(a.buffer), Buffer.from(b.buffer))).toBe(0); // toEqual is slow here
    expect(lazy.segments.length).toBe(whole.segments.length);
    expect(lazy.segments.filter(Boolean).length).toBeLessThan(Math.max(2, whole.segments.length)); // released
  });

  it.each([0.3, 1, 3.5])(
    'counts the size a whole plan has at speed %s (consonants counted once per phone)',
    (speed) => {
      const text = 'Strength splits; chrysanthemums, rhythm and schwa! Thick sticks, quick frogs. '.repeat(4);
      const request = { text, voice, format: 'wav' as const, speed };
      expect(planLazily(request, 22_050).totalSamples).toBe(planUtterance(request, 22_050).totalSamples);
    },
  );

  it('counts with what earlier counts learned (rates, speeds, voices mixed) the size each has alone', () => {
    const caches = new SynthesisCaches();
    const texts = [
      'Strength splits; chrysanthemums, rhythm and schwa! Thick sticks, quick frogs.',
      'Quick frogs split rhythm: strength in thick sticks, and schwa again? [laugh] Chrysanthemums.',
      '你好，世界。Splits and sticks, once more.',
    ];
    const slower: VoiceProfile = {
      ...voice,
      id: 'slower',
      syllablesPerSecond: voice.syllablesPerSecond * 0.7,
    };
    const requests = texts.flatMap((text) =>
      [voice, slower].flatMap((v) =>
        [undefined, 0.5, 2.25].map((speed) => ({ text, voice: v, format: 'wav' as const, speed })),
      ),
    );
    for (const sampleRate of [24_000, 16_000, 24_000, 44_100]) {
      for (const request of requests) {
        const alone = planUtterance(request, sampleRate).totalSamples;
        expect(planLazily(request, sampleRate, caches).totalSamples).toBe(alone);
      }
      caches.plans.clear(); // count again next round, with the syllables learned
    }
    expect(caches.counts.size).toBeGreaterThan(0);
  });

  it('gives the same bytes each time a stream is read again', () => {
    const stream = synthesize({ text: 'Once. Twice, and again!', voice, format: 'wav', chunkMs: 50 });
    const read = () => Buffer.concat([...stream.chunks()]);
    const first = read();
    expect(first.length).toBe(stream.byteLength);
    expect(Buffer.compare(read(), first)).toBe(0);
  });

  it('plans a repeated request from the memo with the same samples, and never mixes up two voices', () => {
    const caches = new SynthesisCaches();
    const text = 'A sentence said twice, the same way each time. And a second one!';
    const request = { text, voice, format: 'pcm' as const, speed: 1.2 };
    const fresh = rendered(planUtterance(request, 24_000));
    planLazily(request, 24_000, caches); // now in the memo
    expect(caches.plans.size).toBe(1);
    const again = planLazily(request, 24_000, caches);
    expect(caches.plans.size).toBe(1);
    expect(again.totalSamples).toBe(fresh.length);
    expect(Buffer.compare(Buffer.from(rendered(again).buffer), Buffer.from(fresh.buffer))).toBe(0);
    // A custom voice remade under the same id and seed with another profile (slower speech) is planned
    // anew: it must not be given the first voice's size.
    const slower: VoiceProfile = { ...voice, syllablesPerSecond: voice.syllablesPerSecond / 2 };
    const other = { ...request, voice: slower };
    expect(planLazily(other, 24_000, caches).totalSamples).toBe(planUtterance(other, 24_000).totalSamples);
    expect(planLazily(other, 24_000, caches).totalSamples).toBeGreaterThan(fresh.length);
  });
});
