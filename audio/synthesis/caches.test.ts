import { describe, expect, it } from 'vitest';
import type { SynthesisRequest, VoiceProfile } from '../types.js';
import { BoundedMemo, RecentMemo, SynthesisCaches } from './caches.js';
import { synthesize, synthesizeSamples, synthesizeToBytes } from './synthesize.js';
import { parseText } from './text.js';
import { systemVoices } from './voices.js';

const voice = systemVoices[0] as VoiceProfile;
const texts = [
  'Hello there, friend! [sigh] Are you well?',
  '你好，世界。Привет, café!',
  'Once. Twice, again!',
];

describe('SynthesisCaches', () => {
  it('fills with the words, characters and stream plans of the requests it is passed, and clear() empties it', () => {
    const caches = new SynthesisCaches();
    expect(caches.size).toBe(0);
    synthesizeToBytes({ text: texts[1] as string, voice, format: 'wav' }, caches);
    expect(caches.words.size).toBeGreaterThan(0);
    expect(caches.characters.size).toBeGreaterThan(0);
    expect(caches.plans.size).toBe(0); // a whole render needs no size up front
    // A WAV stream's header carries its size: it is counted up front, and kept.
    synthesize({ text: texts[0] as string, voice, format: 'wav' }, caches);
    expect(caches.plans.size).toBe(1);
    expect(caches.counts.size).toBeGreaterThan(0); // what the count learned of its syllables
    expect(caches.size).toBe(
      caches.plans.size + caches.words.size + caches.characters.size + caches.counts.size,
    );
    caches.clear();
    expect(caches.size).toBe(0);
  });

  it('changes no byte: cold, warm, cleared and without caches give the same audio', () => {
    const caches = new SynthesisCaches();
    for (const text of texts) {
      for (const format of ['wav', 'pcm', 'mp3'] as const) {
        const request: SynthesisRequest = { text, voice, format, speed: 1.1, emotion: 'happy' };
        const plain = synthesizeToBytes(request);
        const cold = synthesizeToBytes(request, caches);
        const warm = synthesizeToBytes(request, caches);
        expect(Buffer.compare(cold, plain)).toBe(0);
        expect(Buffer.compare(warm, plain)).toBe(0);
        const streamed = Buffer.concat([...synthesize(request, caches).chunks()]);
        expect(Buffer.compare(streamed, plain)).toBe(0);
      }
    }
    caches.clear();
    const samples = synthesizeSamples({ text: texts[0] as string, voice }, caches).samples;
    expect(samples).toEqual(synthesizeSamples({ text: texts[0] as string, voice }).samples);
  });

  it('shares a word’s syllables between texts only through the caches passed', () => {
    const caches = new SynthesisCaches();
    const first = parseText('river stone', caches).tokens[0];
    const second = parseText('stone river', caches).tokens[1];
    expect(second).toEqual(first);
    expect(second?.kind === 'word' && first?.kind === 'word' && second.syllables === first.syllables).toBe(
      true,
    );
    const alone = parseText('stone river').tokens[1];
    expect(alone?.kind === 'word' && first?.kind === 'word' && alone.syllables === first.syllables).toBe(
      false,
    );
  });
});

describe('the memos', () => {
  it('BoundedMemo empties itself when a new key comes to a full memo', () => {
    const memo = new BoundedMemo<number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    expect(memo.size).toBe(2);
    memo.set('c', 3);
    expect([memo.get('a'), memo.get('b'), memo.get('c'), memo.size]).toEqual([undefined, undefined, 3, 1]);
  });

  it('RecentMemo lets the least recently used go first', () => {
    const memo = new RecentMemo<number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    memo.get('a');
    memo.set('c', 3);
    expect([memo.get('a'), memo.get('b'), memo.get('c'), memo.size]).toEqual([1, undefined, 3, 2]);
  });
});
