import { describe, expect, it } from 'vitest';
import { pageSizeFor } from '../conformance/explore/commands/steer.js';
import { Coverage, coverageStates, creationState, freeUsesState, listStates } from './coverage.js';

describe('state coverage', () => {
  it('places a list of n voices against its page size', () => {
    expect(listStates(0, 20)).toEqual(['voices: 0']);
    expect(listStates(2, 3)).toEqual(['voices: page size - 1']);
    expect(listStates(4, 2)).toEqual(['voices: a multiple (2+) of the page size']);
    expect(listStates(3, 2)).toEqual(['voices: page size + 1']);
    expect(listStates(21, 20)).toEqual(['voices: page size + 1', 'voices: more than 20']);
  });

  it('counts free uses down, and a creation past 0 as paid', () => {
    expect(freeUsesState(7)).toBe('free uses left: 3');
    expect(creationState(1)).toBe('free uses left: 0');
    expect(creationState(0)).toBe('creation past 0 free uses (paid)');
  });

  it('steers: the page size that puts n voices into each list state reaches it', () => {
    for (const n of [1, 2, 3, 4, 6, 10]) {
      for (const state of coverageStates) {
        const size = pageSizeFor(state, n);
        if (size !== undefined) expect(listStates(n, size), `${state} with ${n}`).toContain(state);
      }
    }
    expect(pageSizeFor('voices: more than 20', 3)).toBeUndefined();
  });

  it('prints every state, reached or not', () => {
    const c = new Coverage();
    c.note('voices: 1');
    c.note('voices: 1');
    expect(c.lines()[1]).toBe('[x] voices: 1 (2)');
    expect(c.lines()).toHaveLength(coverageStates.length);
    expect(c.missing()).not.toContain('voices: 1');
  });
});
