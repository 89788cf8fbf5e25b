/**
 * The vocabulary the text parser, the syllabifier, the prosody and the segment builder share: phones,
 * syllables, punctuation breaks, expression tags and the tokens of a parsed text. Types only, importing
 * nothing, so that every module of the synthesis can use them without importing another's code.
 */

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

/** A word's token; equal words of a text (and of texts sharing a `SynthesisCaches`) share one. */
export interface WordToken {
  readonly kind: 'word';
  readonly syllables: readonly Syllable[];
}

export type Token =
  | WordToken
  | { readonly kind: 'break'; readonly strength: BreakKind }
  | { readonly kind: 'tag'; readonly tag: TagKind };

export interface ParsedText {
  readonly tokens: readonly Token[];
  /** The text with every tag removed and whitespace collapsed: what is actually spoken (seeds the voice). */
  readonly spoken: string;
  readonly syllableCount: number;
}

/** What a character beyond ASCII does to the text it is in (see `charAction` in text-letters.ts). */
export type CharAction =
  | { readonly kind: 'cjk'; readonly hash: number }
  | { readonly kind: 'letters'; readonly letters: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'end-word' };
