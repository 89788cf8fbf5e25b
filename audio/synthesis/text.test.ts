import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashCodeUnit, hashString } from './rng.js';
import { parseText } from './text.js';
import { cjkBlocks, cjkPattern } from './text-letters.js';

const kinds = (text: string) =>
  parseText(text).tokens.map((t) => (t.kind === 'word' ? t.syllables.length : t));

describe('parseText', () => {
  it('reads words, breaks, digits and known tags', () => {
    expect(kinds('Hello [laugh] world?')).toEqual([
      2,
      { kind: 'tag', tag: 'laugh' },
      1,
      { kind: 'break', strength: 'question' },
    ]);
    expect(kinds('[unknown] 42')).toEqual([1, 1]); // four, two
    expect(parseText('Hello  [sigh]\tthere,\u3000friend').spoken).toBe('Hello there, friend');
  });

  it('keeps apostrophes inside words and cuts them at other marks', () => {
    expect(kinds("don't")).toEqual(kinds('dont'));
    expect(kinds('don’t')).toEqual(kinds('dont'));
    expect(kinds('don-t')).toEqual([...kinds('don'), ...kinds('t')]);
  });

  it('lowercases ASCII and accented Latin letters alike', () => {
    expect(parseText('HELLO Été').tokens).toEqual(parseText('hello ete').tokens);
  });

  it('reads a surrogate pair as one character', () => {
    // One CJK syllable per ideograph, also beyond the BMP.
    expect(parseText('\u{20000}\u{20001}').syllableCount).toBe(2);
    expect(parseText('a\u{1F600}b').tokens).toHaveLength(2);
  });

  it('finds CJK by code point in the blocks the pattern fully covers', () => {
    for (const [first, last] of cjkBlocks) {
      for (let code = first; code <= last; code++) {
        if (!cjkPattern.test(String.fromCharCode(code))) expect.fail(`U+${code.toString(16)} is not CJK`);
      }
    }
  });
});

describe('parseText spoken', () => {
  const slow = (text: string) =>
    text
      .replace(/\[([^[\]]*)\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();

  it('collapses and trims whitespace exactly as \\s and trim() do, for every code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const text of [`a${c}b`, `${c}a`, `a${c}`, `a ${c}b`]) {
        if (parseText(text).spoken !== slow(text))
          expect.fail(`U+${code.toString(16)} in ${JSON.stringify(text)}`);
      }
    }
    for (const text of ['', ' ', 'a  b', ' a', 'a ', '[x]a', 'a[x]', 'a [x] b', '[[x]]']) {
      expect(parseText(text).spoken).toBe(slow(text));
    }
  });

  it('collapses runs anywhere in a text as the regular expressions do (seeded, 2,000 texts)', () => {
    // Letters, plain spaces, other whitespace and brackets, so runs of every kind meet every position.
    const unit = fc.constantFrom('a', 'b', ' ', ' ', '\t', '\n', '\u00a0', '\u3000', '\ufeff', '[', ']', '.');
    const text = fc.array(unit, { maxLength: 40 }).map((units) => units.join(''));
    fc.assert(
      fc.property(text, (t) => parseText(t).spoken === slow(t)),
      { seed: 25, numRuns: 2000 },
    );
  });
});

describe('hashCodeUnit', () => {
  it('is hashString of the one-unit string, for every code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (hashCodeUnit(code) !== hashString(String.fromCharCode(code))) expect.fail(`U+${code.toString(16)}`);
    }
  });
});
