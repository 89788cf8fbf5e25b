/**
 * What counting passes learn of syllables, kept for the next count (SynthesisCaches.counts; the
 * segment builder fills it). Pure results of a syllable's phones, the sample rate and the time scale,
 * so a hit changes no byte.
 */

import type { Phone, Syllable } from './vocabulary.js';

/** What a counting pass keeps of one syllable at one time scale: all but its vowel, which varies. */
export interface SyllableCount {
  readonly onsetTime: number;
  readonly codaTime: number;
  /** The samples of its onset and coda consonants. */
  readonly consonantSamples: number;
  readonly diphthong: boolean;
}

/** What counting passes learned at one sample rate and time scale (segment-builder.ts fills it). */
export interface CountsAtScale {
  /** The samples of each consonant: they depend only on its phone, the rate and the scale. */
  readonly consonants: Map<Phone, number>;
  /** The consonants of each syllable object (the words memo's, shared by equal words). */
  readonly syllables: Map<Syllable, SyllableCount>;
}

/**
 * What counting passes learned, per sample rate and time scale (a voice's pace at a speed), for the
 * next request's count: a text's syllables are mostly those of words met before. Bounded: a count
 * that finds `capacity` entries or more over all scales starts it afresh (so at most one count's new
 * syllables past it: the words memo makes new syllable objects each time it is emptied), and so does
 * a 65th scale.
 */
export class CountMemo {
  private readonly scales = new Map<string, CountsAtScale>();

  constructor(readonly capacity: number) {}

  /** The counts at this rate and scale, made empty when none are kept yet; one count asks once. */
  at(sampleRate: number, timeScale: number): CountsAtScale {
    if (this.size >= this.capacity) this.scales.clear();
    const key = `${sampleRate} ${timeScale}`;
    const known = this.scales.get(key);
    if (known !== undefined) return known;
    if (this.scales.size >= 64) this.scales.clear();
    const counts: CountsAtScale = { consonants: new Map(), syllables: new Map() };
    this.scales.set(key, counts);
    return counts;
  }

  clear(): void {
    this.scales.clear();
  }

  /** Syllables and consonants kept, over all scales. */
  get size(): number {
    let size = 0;
    for (const counts of this.scales.values()) size += counts.syllables.size + counts.consonants.size;
    return size;
  }
}
