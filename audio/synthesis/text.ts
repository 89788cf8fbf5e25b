/**
 * Text → pseudo-phonetic tokens for the fake-voice synthesizer. Nothing here is real phonology: the aim
 * is a stable, language-agnostic mapping that gives speech-like rhythm (syllables, word gaps, pauses at
 * punctuation) so that the output sounds like someone talking in a made-up language.
 */

import { SynthesisCaches } from './caches.js';
import { hashCodeUnit } from './rng.js';
import { syllabify } from './syllables.js';
import { charAction, cjkSyllable, inCjkBlock } from './text-letters.js';
import { asciiBreaks, breakRank, otherBreaks, tagAliases } from './text-marks.js';
import type { BreakKind, CharAction, ParsedText, Syllable, TagKind, Token, WordToken } from './vocabulary.js';

const digitNames = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const tagPattern = /\[([^[\]]*)\]/g;

/** The words of the digit names, made once: a digit is read as its English name. */
const digitWords: readonly WordToken[] = digitNames.map((name) => ({
  kind: 'word',
  syllables: syllabify(name),
}));
/**
 * One token per break strength, shared by every text: tokens are never changed once made, so a text's
 * tokens are these, the words memo's, and only its CJK runs and tags of its own.
 */
const breakTokens: Readonly<Record<BreakKind, Token>> = {
  minor: { kind: 'break', strength: 'minor' },
  statement: { kind: 'break', strength: 'statement' },
  exclamation: { kind: 'break', strength: 'exclamation' },
  question: { kind: 'break', strength: 'question' },
};

const isAsciiLetter = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);

class Tokenizer {
  readonly tokens: Token[] = [];
  /**
   * Words repeat (Zipf): their tokens (the syllables) are kept, so a long text splits each word once
   * and equal words share one token. An alphabet repeats few characters: each one's action (Unicode
   * tests, NFKD) is worked out once. Neither is ever changed after it is made, so texts may share them.
   */
  private readonly words: SynthesisCaches['words'];
  private readonly characters: SynthesisCaches['characters'];
  syllableCount = 0;
  private word = '';
  private cjkRun: Syllable[] = [];

  constructor(caches: SynthesisCaches) {
    this.words = caches.words;
    this.characters = caches.characters;
  }

  flushWord(): void {
    if (this.word) {
      this.pushWord(this.wordOf(this.word));
      this.word = '';
    }
    if (this.cjkRun.length > 0) {
      this.pushWord({ kind: 'word', syllables: this.cjkRun });
      this.cjkRun = [];
    }
  }

  pushWord(word: WordToken): void {
    if (word.syllables.length === 0) return;
    this.tokens.push(word);
    this.syllableCount += word.syllables.length;
  }

  pushBreak(strength: BreakKind): void {
    this.flushWord();
    const last = this.tokens[this.tokens.length - 1];
    // Runs of punctuation ("?!", "...") are one boundary with the strongest meaning.
    if (last?.kind === 'break') {
      if (breakRank[strength] > breakRank[last.strength])
        this.tokens[this.tokens.length - 1] = breakTokens[strength];
      return;
    }
    if (this.tokens.length > 0) this.tokens.push(breakTokens[strength]);
  }

  pushTag(tag: TagKind): void {
    this.flushWord();
    this.tokens.push({ kind: 'tag', tag });
  }

  /**
   * Reads `text` from `start` to `end` character by character (a surrogate pair is one character).
   * Runs of ASCII letters, most of a typical text, join the word as one lowercased slice.
   */
  feed(text: string, start: number, end: number): void {
    let i = start;
    while (i < end) {
      const code = text.charCodeAt(i);
      if (isAsciiLetter(code)) {
        let j = i + 1;
        let upper = code <= 0x5a;
        for (; j < end; j++) {
          const c = text.charCodeAt(j);
          if (c >= 0x61 && c <= 0x7a) continue;
          if (c < 0x41 || c > 0x5a) break;
          upper = true;
        }
        if (this.cjkRun.length > 0) this.flushWord();
        const letters = text.slice(i, j);
        this.word += upper ? letters.toLowerCase() : letters;
        i = j;
      } else if (code < 0x80) {
        this.feedAscii(code);
        i++;
      } else if (inCjkBlock(code)) {
        // The bulk of a CJK text: one code unit, hashed as `hashString` would hash it, no string made.
        // No break mark lies in these blocks, so testing them first keeps the rules' order.
        this.pushCjk(hashCodeUnit(code));
        i++;
      } else {
        // Beyond ASCII, in the order of the rules: a break mark, then the per-character action.
        const pair =
          code >= 0xd800 && code <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1));
        const char = text.slice(i, pair ? i + 2 : i + 1);
        const brk = pair ? undefined : otherBreaks.get(code);
        if (brk) this.pushBreak(brk);
        else this.feedAction(this.actionOf(char));
        i += char.length;
      }
    }
  }

  /** An ASCII character other than a letter: a break, a digit (its name), an apostrophe, or a word end. */
  private feedAscii(code: number): void {
    const brk = asciiBreaks[code];
    if (brk) {
      this.pushBreak(brk);
    } else if (code >= 0x30 && code <= 0x39) {
      this.flushWord();
      const digit = digitWords[code - 0x30];
      if (digit) this.pushWord(digit);
    } else if (code !== 0x27) {
      // An apostrophe stays inside its word ("don't"); anything else ends it.
      this.flushWord();
    }
  }

  private wordOf(word: string): WordToken {
    return this.words.get(word) ?? this.words.set(word, { kind: 'word', syllables: syllabify(word) });
  }

  private actionOf(char: string): CharAction {
    return this.characters.get(char) ?? this.characters.set(char, charAction(char));
  }

  private pushCjk(hash: number): void {
    if (this.word) this.flushWord();
    this.cjkRun.push(cjkSyllable(hash));
    // Long CJK runs get a word boundary every few characters so the rhythm breathes.
    if (this.cjkRun.length >= 2 + (hash % 3)) this.flushWord();
  }

  private feedAction(action: CharAction): void {
    switch (action.kind) {
      case 'cjk':
        this.pushCjk(action.hash);
        return;
      case 'letters':
        if (this.cjkRun.length > 0) this.flushWord();
        this.word += action.letters;
        return;
      case 'none':
        return;
      case 'end-word':
        this.flushWord();
    }
  }
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Whitespace other than a plain space, or a space followed by more: what a collapse would change. */
const uncollapsed = /[^\S ]| \s/;

/**
 * `text.replace(/\s+/g, ' ').trim()`: trimmed first, then the rebuilding replace only when a run needs
 * it. Most texts have single spaces between words and, at most, one at an end (40 of the bench's 50
 * burst texts end in a space): for them the test of `uncollapsed` (~6 µs for 5,000 characters) is all,
 * where the replace rebuilt the text (~40 µs and ~75 KB). Regular expressions, not a loop, so that no
 * branch first taken by a client's text throws compiled code away (a loop with a branch for runs, as
 * this once was, cost a fresh mock's first stream ~1 ms when its warm-up had met no run).
 */
function collapseSpaces(text: string): string {
  const trimmed = text.trim();
  return uncollapsed.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}

/**
 * Splits text into words of pseudo-syllables, punctuation breaks and known expression tags. The syllables
 * of words and the actions of characters are kept in `caches` (a fresh one, dropped after the call, when
 * none is passed); they change no result.
 *
 * @example
 * parseText('Hello [laugh] world?').tokens.map((t) => t.kind); // ['word', 'tag', 'word', 'break']
 */
export function parseText(text: string, caches: SynthesisCaches = new SynthesisCaches()): ParsedText {
  const tokenizer = new Tokenizer(caches);
  let last = 0;
  // Most texts have no tag: skip the pattern's pass over them.
  const tagged = text.includes('[');
  for (const match of tagged ? text.matchAll(tagPattern) : []) {
    tokenizer.feed(text, last, match.index);
    tokenizer.flushWord();
    const tag = tagAliases[(match[1] ?? '').trim().toLowerCase().replace(/\s+/g, ' ')];
    if (tag) tokenizer.pushTag(tag);
    last = match.index + match[0].length;
  }
  tokenizer.feed(text, last, text.length);
  tokenizer.flushWord();
  const untagged = tagged ? text.replace(tagPattern, ' ') : text;
  return {
    tokens: tokenizer.tokens,
    spoken: collapseSpaces(untagged),
    syllableCount: tokenizer.syllableCount,
  };
}
