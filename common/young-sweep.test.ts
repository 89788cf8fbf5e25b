import { afterEach, describe, expect, it, vi } from 'vitest';
import { sweepBytes, youngSweep } from './young-sweep.js';

describe('youngSweep', () => {
  const holder = globalThis as { gc?: unknown };
  afterEach(() => {
    delete holder.gc;
  });

  it('runs a young-generation collection once per sweepBytes passed, and not before', () => {
    // A gc already exposed (node --expose-gc) is the one used: here a spy stands in for it.
    const gc = vi.fn();
    holder.gc = gc;
    const sweep = youngSweep();
    sweep(sweepBytes - 1);
    expect(gc).not.toHaveBeenCalled();
    sweep(1);
    expect(gc.mock.calls).toEqual([[{ type: 'minor' }]]);
    for (let i = 0; i < 64; i++) sweep(sweepBytes / 64);
    expect(gc).toHaveBeenCalledTimes(2);
    sweep(sweepBytes / 2);
    expect(gc).toHaveBeenCalledTimes(2);
  });
});
