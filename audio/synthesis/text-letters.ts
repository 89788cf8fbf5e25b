/**
 * What a character beyond ASCII letters, digits and punctuation does to a text: a CJK character is one
 * syllable of its own, an accented Latin letter is its base letter, a letter of another alphabet is
 * romanized. Pure functions and constant tables.
 */

import { hashString } from './rng.js';
import type { CharAction, Phone, Syllable, Vowel } from './vocabulary.js';

const cjkOnsets: readonly (Phone | null)[] = [
  null,
  'b',
  'p',
  'm',
  'f',
  'd',
  't',
  'n',
  'l',
  'g',
  'k',
  'h',
  'j',
  'ch',
  'sh',
  'r',
  's',
  'w',
];
const vowels: readonly Vowel[] = ['a', 'e', 'i', 'o', 'u'];
export const cjkPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const latinLetter = /[a-z]/;
const otherLetter = /\p{L}/u;
const combiningMark = /\p{M}/gu;

// A CJK syllable depends only on five small numbers taken from its character's hash (18 × 5 × 5 × 2 × 2 =
// 1,800 shapes), so the syllable of every shape is made once, up front: characters of one shape share one
// syllable, and a counting pass counts each shape once. A constant table: syllables are never changed.
const cjkSyllables: readonly Syllable[] = buildCjkSyllables();

/** The syllable of every shape, at the index `cjkSyllable` computes from the five numbers. */
function buildCjkSyllables(): Syllable[] {
  const table: Syllable[] = [];
  for (const onset of cjkOnsets) {
    for (const v1 of vowels) {
      for (const v2 of vowels) {
        for (const glide of [false, true]) {
          for (const hasCoda of [false, true]) {
            const coda = hasCoda ? (['n'] as const) : [];
            table.push({ onset: onset ? [onset] : [], nucleus: glide ? [v1, v2] : [v1], coda });
          }
        }
      }
    }
  }
  return table;
}

/**
 * Each CJK character is one syllable; its sounds come from its code point (hash `h`) so they are stable.
 *
 * @example
 * cjkSyllable(hashCodeUnit(0x4f60)).nucleus.length; // 1 or 2 (a glide)
 */
export function cjkSyllable(h: number): Syllable {
  const onsetIndex = h % cjkOnsets.length;
  const v1Index = (h >>> 8) % vowels.length;
  const v2Index = (h >>> 12) % vowels.length;
  const glide = ((h >>> 16) & 3) === 0 && v1Index !== v2Index;
  const hasCoda = ((h >>> 20) & 3) === 0;
  const shape = (((onsetIndex * 5 + v1Index) * 5 + v2Index) * 2 + (glide ? 1 : 0)) * 2 + (hasCoda ? 1 : 0);
  return cjkSyllables[shape] as Syllable;
}

/**
 * The big CJK blocks (CJK ideographs, Hangul syllables, hiragana, katakana), first to last code point:
 * `cjkPattern` matches every code point in them (text.test.ts checks), so they skip the pattern.
 */
export const cjkBlocks: readonly (readonly [number, number])[] = [
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
];

/** Whether a code unit lies in one of `cjkBlocks`. */
export function inCjkBlock(code: number): boolean {
  for (const [first, last] of cjkBlocks) if (code >= first && code <= last) return true;
  return false;
}

/** Vowel letters of common non-Latin alphabets (Cyrillic, Greek, Hebrew/Arabic matres), by colour. */
const foreignVowels: Readonly<Record<string, Vowel>> = Object.fromEntries(
  [...'аяэеёиіїєыоуюαεηιουωاويאוי'].map((c, i) => [c, vowels[i % vowels.length] ?? 'a']),
);

/** Letters of non-Latin alphabets (Cyrillic, Greek, Arabic...) become Latin letters by code point. */
function romanize(char: string): string {
  const lower = char.toLowerCase();
  const vowel = foreignVowels[lower];
  if (vowel) return vowel;
  const cp = lower.codePointAt(0) ?? 0;
  const consonants = 'bdfgklmnprstvz';
  return consonants[cp % consonants.length] ?? 't';
}

/**
 * What a character beyond ASCII that is neither a break mark nor in `cjkBlocks` does to the text, by these
 * rules in this order: a CJK syllable (a rarer block), letters joining the word (an accented Latin
 * letter's base, or a romanized letter of another alphabet), nothing (an apostrophe), or the end of a word.
 *
 * @example
 * charAction('é'); // { kind: 'letters', letters: 'e' }
 */
export function charAction(char: string): CharAction {
  if (cjkPattern.test(char)) return { kind: 'cjk', hash: hashString(char) };
  const base = char.normalize('NFKD').replace(combiningMark, '').toLowerCase();
  if (base.length === 1 && latinLetter.test(base)) return { kind: 'letters', letters: base };
  // Apostrophes stay inside words ("don’t").
  if (char === '’') return { kind: 'none' };
  if (otherLetter.test(char)) return { kind: 'letters', letters: romanize(char) };
  return { kind: 'end-word' };
}
