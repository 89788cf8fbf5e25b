import { describe, expect, it } from 'vitest';
import type { RunBilling } from '../types.js';
import { voicesPhrase } from './cost.js';

const billing = (counts: Partial<RunBilling>): RunBilling => ({
  remainingFreeCloneCountBefore: null,
  remainingFreeCloneCountAfter: null,
  voicesCreated: 27,
  uploads: 0,
  voicesDeletedByCases: 1,
  voicesDeleted: 26,
  voicesRemaining: 0,
  cleanupFailures: [],
  ...counts,
});

describe('the voices of a run, in numbers that add up', () => {
  it.each([
    [{}, 'Voices created: 27 (1 deleted by the cases, 26 by cleanup), left: 0'],
    [
      { voicesDeleted: 25, voicesRemaining: 1 },
      'Voices created: 27 (1 deleted by the cases, 25 by cleanup), left: 1',
    ],
    [{ voicesDeleted: 27 }, '; 1 more found by the cleanup than successful saves reported'],
    [{ voicesDeleted: 24 }, '; 2 saved but never listed, so not counted as deleted or left'],
  ])('%j → %s', (counts, text) => {
    expect(voicesPhrase(billing(counts))).toContain(text);
  });
});
