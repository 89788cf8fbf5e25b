import { describe, expect, it } from 'vitest';
import { CountMemo } from './count-memo.js';
import type { Syllable } from './vocabulary.js';

describe('CountMemo', () => {
  it('keeps counts per sample rate and time scale, and starts afresh past its capacity', () => {
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
    at.consonants.set('t', 12);
    expect(memo.at(24_000, 1)).toBe(at); // kept: a known scale is never emptied by its own lookup
    expect(memo.at(8_000, 2).syllables.size).toBe(0); // a new scale past the capacity: all start afresh
    expect([memo.size, memo.at(24_000, 1).consonants.size]).toEqual([0, 0]);
    memo.at(24_000, 1).consonants.set('k', 10);
    memo.clear();
    expect(memo.size).toBe(0);
  });
});
