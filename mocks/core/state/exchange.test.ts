import { describe, expect, it } from 'vitest';
import { fullGc } from '../../../scripts/test/full-gc.js';
import { keptText, ownCopy, shortened } from './exchange.js';

/** JS heap after two full GCs, MB. */
function heapMB(): number {
  const gc = fullGc();
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

describe('what the journal keeps of a long text', () => {
  it('copies exactly, a surrogate cut in half and characters beyond ASCII included', () => {
    const text = 'café 😀 "quoted" \\ back\nslash \u0000 end';
    for (let cut = 0; cut <= text.length; cut++) expect(ownCopy(text.slice(0, cut))).toBe(text.slice(0, cut));
    const lone = 'ab\ud800cd';
    expect(ownCopy(lone)).toBe(lone);
    expect(keptText('x😀y', 2)).toEqual({ text: 'x\ud83d', chars: 4, truncated: true });
    // Up to twice the cut, the cut is a slice of the text; past that, a copy. Either way the same
    // characters, which is what this checks (the heap test below checks that the copy lets go).
    expect(keptText('abcdefg', 4)).toEqual({ text: 'abcd', chars: 7, truncated: true });
    expect(keptText('abcdefghi', 4)).toEqual({ text: 'abcd', chars: 9, truncated: true });
    expect(shortened('abcdef', 4)).toBe('abc…');
  });

  it('keeps cuts of 200 different 1 MB texts without keeping the texts (≤ 40 MB, not ~200)', () => {
    const before = heapMB();
    const cuts: string[] = [];
    for (let i = 0; i < 200; i++) {
      // A new 1 MB string each time (made, not a literal), cut to the journal's 4,096 characters.
      const text = `${i} ${'speech '.repeat(150_000)}`;
      cuts.push(keptText(text).text, shortened(text, 1024));
    }
    const grown = heapMB() - before;
    expect(cuts).toHaveLength(400);
    expect(grown).toBeLessThan(40);
  });
});
