/**
 * The phone recipes of the utterance timeline: consonants by their class, and whole syllables, written
 * with `at()` of the segment timeline; and the counting pass's shortcuts, which add the same samples
 * without writing segments.
 */

import { CountMemo, type CountsAtScale, type SyllableCount } from './count-memo.js';
import { type PhoneSound, phoneSounds, voiceBarFormants, vowelFormants } from './phone-sounds.js';
import { type BuilderOptions, countedLength, SegmentTimeline } from './segment-timeline.js';
import type { Phone, Syllable, Vowel } from './vocabulary.js';

/** The time of a run of phones, summed in order (the same float additions as ever). */
function phonesTime(phones: readonly Phone[], timeScale: number): number {
  let sum = 0;
  for (const phone of phones) sum += phoneSounds[phone].duration * timeScale;
  return sum;
}

/** The segment timeline with the recipes of the pseudo-phones. */
export class SegmentBuilder extends SegmentTimeline {
  /**
   * What counting passes learned at the time scale counted last, from `counts` (an engine's caches
   * hand theirs to every counting builder; without one, a builder counts with its own). A
   * consonant's segment lengths depend only on its phone and that scale (not on its level or the
   * next vowel), so each phone is counted once, not once per occurrence (a 5,000-character text
   * counts ~4,000 consonants of ~30 phones before its first byte); equal words share their syllable
   * objects (the words memo of SynthesisCaches), so a long text looks up a few hundred distinct
   * syllables instead of re-adding every phone of ~1,000 of them.
   */
  private counted: CountsAtScale | undefined;
  private countedScale = Number.NaN;

  constructor(
    options: BuilderOptions,
    f0: number,
    private counts?: CountMemo,
  ) {
    super(options, f0);
  }

  /** One consonant lasting `seconds`; `next` is the vowel it leads into (for aspiration colour). */
  consonant(sound: PhoneSound, seconds: number, next: Vowel, level: number): void {
    const nextFormants = this.scale(vowelFormants[next]);
    // Fast speech shortens the fixed ramps too, so a consonant never outlasts its budget.
    const r = Math.min(1, seconds / sound.duration);
    switch (sound.kind) {
      case 'plosive':
      case 'affricate': {
        const voiced = sound.kind === 'plosive' && sound.voiced;
        const closure = seconds * (sound.kind === 'affricate' ? 0.4 : 0.55);
        this.at(0.012 * r, { voice: voiced ? 0.06 * level : 0, formants: this.scale(voiceBarFormants) });
        this.at(closure - 0.012 * r, { voice: voiced ? 0.06 * level : 0 });
        this.noise = this.scaleNoise(sound.noise);
        const fricLevel = sound.noise.level * level;
        this.at(0.003 * r, { frication: fricLevel, voice: voiced ? 0.1 * level : 0 });
        const rest = seconds - closure - 0.003 * r;
        if (sound.kind === 'affricate') {
          this.at(rest * 0.8, { frication: fricLevel * 0.8 });
          this.at(rest * 0.2, { frication: fricLevel * 0.2, formants: nextFormants });
        } else if (voiced) {
          this.at(rest, { frication: fricLevel * 0.2, voice: 0.25 * level, formants: nextFormants });
        } else {
          this.at(0.012 * r, { frication: fricLevel * 0.5 });
          this.at(rest - 0.012 * r, { aspiration: 0.12 * level, formants: nextFormants });
        }
        return;
      }
      case 'fricative': {
        this.noise = this.scaleNoise(sound.noise);
        const voice = sound.voiced ? 0.25 * level : 0;
        const fricLevel = sound.noise.level * level;
        this.at(0.02 * r, { frication: fricLevel, voice });
        this.at(seconds - 0.035 * r, { frication: fricLevel, voice });
        this.at(0.015 * r, { frication: fricLevel * 0.3, voice, formants: nextFormants });
        return;
      }
      case 'aspirate':
        this.at(0.015 * r, { voice: 0, aspiration: sound.level * level, formants: nextFormants });
        this.at(seconds - 0.015 * r, { voice: 0, aspiration: sound.level * level });
        return;
      case 'sonorant': {
        const formants = this.scale(sound.formants);
        this.at(0.02 * r, { voice: sound.level * level, formants });
        this.at(seconds - 0.02 * r, { voice: sound.level * level });
      }
    }
  }

  /** A whole syllable of `seconds`: onset consonants, the vowel (gliding for diphthongs), coda consonants. */
  syllable(syllable: Syllable, seconds: number, level: number, timeScale: number): void {
    if (this.countOnly) {
      this.countSyllable(syllable, seconds, timeScale);
      return;
    }
    const onsetTime = phonesTime(syllable.onset, timeScale);
    const vowelTime = Math.max(0.07 * timeScale, seconds - onsetTime - phonesTime(syllable.coda, timeScale));
    // The pitch movement completes on the vowel, where it is heard; the coda holds the final pitch.
    this.contour.duration = onsetTime + vowelTime;
    const first = syllable.nucleus[0] ?? 'e';
    const second = syllable.nucleus[1];
    for (const phone of syllable.onset) {
      const sound = phoneSounds[phone];
      this.consonant(sound, sound.duration * timeScale, first, level);
    }
    const attack = Math.min(0.03, vowelTime * 0.25);
    const release = Math.min(0.035, vowelTime * 0.25);
    const hold = vowelTime - attack - release;
    this.at(attack, { voice: level, formants: this.scale(vowelFormants[first]) });
    if (second) {
      this.at(hold * 0.4, { voice: level });
      this.at(hold * 0.6, { voice: level * 0.9, formants: this.scale(vowelFormants[second]) });
    } else {
      this.at(hold, { voice: level * 0.92 });
    }
    this.at(release, { voice: level * 0.45 });
    for (const phone of syllable.coda) {
      const sound = phoneSounds[phone];
      this.consonant(sound, sound.duration * timeScale, second ?? first, level * 0.8);
    }
  }

  /**
   * What `syllable()` adds to `totalSamples` in a counting pass, with the same segments of the same
   * lengths: the consonants as counted the first time this syllable came, then the vowel's pieces,
   * whose times depend on `seconds` (the same float operations as `syllable()`, in the same order).
   */
  countSyllable(syllable: Syllable, seconds: number, timeScale: number): void {
    if (timeScale !== this.countedScale || this.counted === undefined) {
      this.counts ??= new CountMemo(Number.POSITIVE_INFINITY);
      this.counted = this.counts.at(this.options.sampleRate, timeScale);
      this.countedScale = timeScale;
    }
    let count = this.counted.syllables.get(syllable);
    if (count === undefined) {
      count = this.countConsonants(syllable, timeScale, this.counted);
      this.counted.syllables.set(syllable, count);
    }
    const vowelTime = Math.max(0.07 * timeScale, seconds - count.onsetTime - count.codaTime);
    const attack = Math.min(0.03, vowelTime * 0.25);
    const release = Math.min(0.035, vowelTime * 0.25);
    const hold = vowelTime - attack - release;
    const rate = this.options.sampleRate;
    // `at()`'s length rule, inline: the vowel's 3 or 4 pieces are most of a counting pass's calls.
    let samples = count.consonantSamples + countedLength(attack, rate) + countedLength(release, rate);
    if (count.diphthong) samples += countedLength(hold * 0.4, rate) + countedLength(hold * 0.6, rate);
    else samples += countedLength(hold, rate);
    this.totalSamples += samples;
  }

  private countConsonants(syllable: Syllable, timeScale: number, counted: CountsAtScale): SyllableCount {
    const before = this.totalSamples;
    const first = syllable.nucleus[0] ?? 'e';
    for (const phone of syllable.onset) this.countConsonant(phone, timeScale, first, counted);
    for (const phone of syllable.coda) this.countConsonant(phone, timeScale, first, counted);
    const consonantSamples = this.totalSamples - before;
    this.totalSamples = before;
    return {
      onsetTime: phonesTime(syllable.onset, timeScale),
      codaTime: phonesTime(syllable.coda, timeScale),
      consonantSamples,
      diphthong: syllable.nucleus[1] !== undefined,
    };
  }

  private countConsonant(phone: Phone, timeScale: number, next: Vowel, counted: CountsAtScale): void {
    const known = counted.consonants.get(phone);
    if (known !== undefined) {
      this.totalSamples += known;
      return;
    }
    const before = this.totalSamples;
    const sound = phoneSounds[phone];
    this.consonant(sound, sound.duration * timeScale, next, 1);
    counted.consonants.set(phone, this.totalSamples - before);
  }
}
