/**
 * Text → pseudo-phonetic tokens for the fake-voice synthesizer. Nothing here is real phonology: the aim
 * is a stable, language-agnostic mapping that gives speech-like rhythm (syllables, word gaps, pauses at
 * punctuation) so that the output sounds like someone talking in a made-up language.
 */

import { hashString } from './rng.js';
import { syllabify } from './text-syllables.js';

export type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';
export type Phone =
  | 'p'
  | 't'
  | 'k'
  | 'b'
  | 'd'
  | 'g'
  | 's'
  | 'z'
  | 'f'
  | 'v'
  | 'sh'
  | 'ch'
  | 'th'
  | 'h'
  | 'm'
  | 'n'
  | 'l'
  | 'r'
  | 'w'
  | 'j';

/** One pseudo-syllable: consonants before, one or two vowels (a glide), consonants after. */
export interface Syllable {
  readonly onset: readonly Phone[];
  readonly nucleus: readonly Vowel[];
  readonly coda: readonly Phone[];
}

/** Punctuation strength, which sets the pause length and the phrase-final pitch movement. */
export type BreakKind = 'minor' | 'statement' | 'exclamation' | 'question';

/** Expression tags that shape the sound; every other `[tag]` is dropped silently. */
export type TagKind = 'laugh' | 'sigh' | 'breath' | 'pause' | 'long-pause' | 'whisper';

export type Token =
  | { readonly kind: 'word'; readonly syllables: readonly Syllable[] }
  | { readonly kind: 'break'; readonly strength: BreakKind }
  | { readonly kind: 'tag'; readonly tag: TagKind };

export interface ParsedText {
  readonly tokens: readonly Token[];
  /** The text with every tag removed and whitespace collapsed: what is actually spoken (seeds the voice). */
  readonly spoken: string;
  readonly syllableCount: number;
}

const tagAliases: Readonly<Record<string, TagKind>> = {
  laugh: 'laugh',
  laughs: 'laugh',
  laughing: 'laugh',
  laughter: 'laugh',
  chuckle: 'laugh',
  giggle: 'laugh',
  sigh: 'sigh',
  sighs: 'sigh',
  breath: 'breath',
  breathe: 'breath',
  breathes: 'breath',
  inhale: 'breath',
  exhale: 'breath',
  pause: 'pause',
  'short pause': 'pause',
  'long pause': 'long-pause',
  whisper: 'whisper',
  whispers: 'whisper',
  whispering: 'whisper',
};

const breakRank: Readonly<Record<BreakKind, number>> = {
  minor: 1,
  statement: 2,
  exclamation: 3,
  question: 4,
};
const breakOf: Readonly<Record<string, BreakKind>> = {
  ',': 'minor',
  ';': 'minor',
  ':': 'minor',
  '(': 'minor',
  ')': 'minor',
  '—': 'minor',
  '–': 'minor',
  '、': 'minor',
  '，': 'minor',
  '；': 'minor',
  '：': 'minor',
  '.': 'statement',
  '…': 'statement',
  '。': 'statement',
  '\n': 'statement',
  '!': 'exclamation',
  '！': 'exclamation',
  '?': 'question',
  '？': 'question',
  '¿': 'minor',
  '¡': 'minor',
};

const digitNames = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
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
const tagPattern = /\[([^[\]]*)\]/g;
const cjkPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const latinLetter = /[a-z]/;
const otherLetter = /\p{L}/u;
const combiningMark = /\p{M}/gu;

/** Each CJK character is one syllable; its sounds come from its code point so they are stable. */
function cjkSyllable(char: string): Syllable {
  const h = hashString(char);
  const onset = cjkOnsets[h % cjkOnsets.length] ?? null;
  const v1 = vowels[(h >>> 8) % vowels.length] ?? 'a';
  const v2 = vowels[(h >>> 12) % vowels.length] ?? 'a';
  const glide = ((h >>> 16) & 3) === 0 && v1 !== v2;
  const coda = ((h >>> 20) & 3) === 0 ? (['n'] as const) : [];
  return { onset: onset ? [onset] : [], nucleus: glide ? [v1, v2] : [v1], coda };
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

// Words repeat (Zipf): their syllables are kept, bounded, so a long text splits each word once.
// Syllables are never changed after they are made, so sharing them between tokens is safe.
const wordCapacity = 4096;
const wordSyllables = new Map<string, readonly Syllable[]>();
function syllablesOf(word: string): readonly Syllable[] {
  let syllables = wordSyllables.get(word);
  if (!syllables) {
    if (wordSyllables.size >= wordCapacity) wordSyllables.clear();
    syllables = syllabify(word);
    wordSyllables.set(word, syllables);
  }
  return syllables;
}

class Tokenizer {
  readonly tokens: Token[] = [];
  syllableCount = 0;
  private word = '';
  private cjkRun: Syllable[] = [];

  flushWord(): void {
    if (this.word) {
      this.pushWord(syllablesOf(this.word));
      this.word = '';
    }
    if (this.cjkRun.length > 0) {
      this.pushWord(this.cjkRun);
      this.cjkRun = [];
    }
  }

  pushWord(syllables: readonly Syllable[]): void {
    if (syllables.length === 0) return;
    this.tokens.push({ kind: 'word', syllables });
    this.syllableCount += syllables.length;
  }

  pushBreak(strength: BreakKind): void {
    this.flushWord();
    const last = this.tokens[this.tokens.length - 1];
    // Runs of punctuation ("?!", "...") are one boundary with the strongest meaning.
    if (last?.kind === 'break') {
      if (breakRank[strength] > breakRank[last.strength])
        this.tokens[this.tokens.length - 1] = { kind: 'break', strength };
      return;
    }
    if (this.tokens.length > 0) this.tokens.push({ kind: 'break', strength });
  }

  pushTag(tag: TagKind): void {
    this.flushWord();
    this.tokens.push({ kind: 'tag', tag });
  }

  feed(char: string): void {
    const code = char.charCodeAt(0);
    // ASCII letters and spaces, most of any text, before the break lookup (a dictionary lookup by
    // string, the hottest line of a long text's planning); no break mark is a letter or a space.
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
      if (this.cjkRun.length > 0) this.flushWord();
      this.word += String.fromCharCode(code | 0x20);
      return;
    }
    if (code === 0x20) {
      this.flushWord();
      return;
    }
    const brk = breakOf[char];
    if (brk) {
      this.pushBreak(brk);
      return;
    }
    if (code < 0x80 && !(code >= 0x30 && code <= 0x39)) {
      // ASCII, the bulk of most texts, without the Unicode tests below (same outcome, ~3× faster):
      // a letter joins the word, an apostrophe stays inside it, anything else ends it.
      if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
        if (this.cjkRun.length > 0) this.flushWord();
        this.word += String.fromCharCode(code | 0x20);
      } else if (char !== "'") {
        this.flushWord();
      }
      return;
    }
    if (cjkPattern.test(char)) {
      if (this.word) this.flushWord();
      this.cjkRun.push(cjkSyllable(char));
      // Long CJK runs get a word boundary every few characters so the rhythm breathes.
      if (this.cjkRun.length >= 2 + (hashString(char) % 3)) this.flushWord();
      return;
    }
    if (char >= '0' && char <= '9') {
      this.flushWord();
      this.pushWord(syllabify(digitNames[char.charCodeAt(0) - 48] ?? 'zero'));
      return;
    }
    const base = char.normalize('NFKD').replace(combiningMark, '').toLowerCase();
    if (base.length === 1 && latinLetter.test(base)) {
      if (this.cjkRun.length > 0) this.flushWord();
      this.word += base;
    } else if (char === "'" || char === '’') {
      // Apostrophes stay inside words ("don't").
    } else if (otherLetter.test(char)) {
      if (this.cjkRun.length > 0) this.flushWord();
      this.word += romanize(char);
    } else {
      this.flushWord();
    }
  }
}

/**
 * Splits text into words of pseudo-syllables, punctuation breaks and known expression tags.
 *
 * @example
 * parseText('Hello [laugh] world?').tokens.map((t) => t.kind); // ['word', 'tag', 'word', 'break']
 */
export function parseText(text: string): ParsedText {
  const tokenizer = new Tokenizer();
  let last = 0;
  for (const match of text.matchAll(tagPattern)) {
    for (const char of text.slice(last, match.index)) tokenizer.feed(char);
    tokenizer.flushWord();
    const tag = tagAliases[(match[1] ?? '').trim().toLowerCase().replace(/\s+/g, ' ')];
    if (tag) tokenizer.pushTag(tag);
    last = match.index + match[0].length;
  }
  for (const char of text.slice(last)) tokenizer.feed(char);
  tokenizer.flushWord();
  const spoken = text.replace(tagPattern, ' ').replace(/\s+/g, ' ').trim();
  return { tokens: tokenizer.tokens, spoken, syllableCount: tokenizer.syllableCount };
}
