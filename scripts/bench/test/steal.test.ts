import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuTimes, stealPercent } from '../steal.js';

describe('steal time between two readings', () => {
  it('is the stolen share of all CPU time in between', () => {
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1400, steal: 110 })).toBe(25);
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1400, steal: 10 })).toBe(0);
  });

  it('is unknown without two readings, or when no time passed', () => {
    expect(stealPercent(undefined, { total: 5, steal: 0 })).toBeUndefined();
    expect(stealPercent({ total: 5, steal: 0 }, { total: 5, steal: 0 })).toBeUndefined();
  });

  it.runIf(existsSync('/proc/stat'))('reads the machine totals from /proc/stat on Linux', () => {
    const times = cpuTimes();
    expect(times?.total).toBeGreaterThan(0);
    expect(times?.steal).toBeGreaterThanOrEqual(0);
    expect(times?.steal).toBeLessThanOrEqual(times?.total ?? 0);
  });
});
