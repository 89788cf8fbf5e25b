import { describe, expect, it } from 'vitest';
import { CountMemo } from './count-memo.js';
import type { Syllable } from './vocabulary.js';

describe('CountMemo', () => {
  it('keeps counts per sample rate and time scale, and starts afresh once at its capacity', () => {
    const memo = new CountMemo(3);
    const syllable = { onset: [], nucleus: ['a'], coda: [] } as Syllable;
    const count = { onsetTime: 0, codaTime: 0, consonantSamples: 0, diphthong: false };
    const at = memo.at(24_000, 1);
    at.syllables.set(syllable, count);
    at.consonants.set('k', 10);
    expect(memo.at(24_000, 1)).toBe(at);
    expect(memo.at(16_000, 1).syllables.size).toBe(0); // another rate counts apart
    expect(memo.at(24_000, 1.5).syllables.size).toBe(0); // and another scale
    expect(memo.size).toBe(2);
    at.consonants.set('t', 12); // 3 entries: the capacity
    const next = memo.at(24_000, 1); // the next count starts afresh, at a known scale too
    expect([next === at, next.consonants.size, memo.size]).toEqual([false, 0, 0]);
    next.consonants.set('k', 10);
    memo.clear();
    expect(memo.size).toBe(0);
  });

  it('stays bounded when one scale keeps meeting new syllables (a words memo emptied and refilled)', () => {
    const memo = new CountMemo(100);
    const count = { onsetTime: 0, codaTime: 0, consonantSamples: 0, diphthong: false };
    for (let pass = 0; pass < 50; pass++) {
      const at = memo.at(24_000, 1);
      for (let i = 0; i < 30; i++)
        at.syllables.set({ onset: [], nucleus: ['a'], coda: [] } as Syllable, count);
      expect(memo.size).toBeLessThan(100 + 30);
    }
  });

  it('keeps its 64 latest scales at most', () => {
    const memo = new CountMemo(Number.POSITIVE_INFINITY);
    const first = memo.at(24_000, 0);
    first.consonants.set('k', 1);
    for (let scale = 1; scale < 64; scale++) memo.at(24_000, scale).consonants.set('k', 1);
    expect([memo.size, memo.at(24_000, 0)]).toEqual([64, first]);
    memo.at(24_000, 64); // the 65th
    expect(memo.size).toBe(0);
  });
});
