/**
 * conformance --explore against the kit's own mock: quiet (no violation), within its budget, cleaned
 * up, and repeatable with a seed. Small budgets and a short --max-time keep it fast on 2 cores.
 */
import { describe, expect, it } from 'vitest';
import { exploreDeployment } from '../explore/index.js';

const small = {
  allowBillable: true,
  budgetChars: 600,
  budgetUploads: 4,
  budgetCreations: 3,
  maxTimeSeconds: 6,
} as const;

describe('conformance --explore', () => {
  it('is quiet against the kit mock, spends within its budget and leaves no voice behind', async () => {
    const r = await exploreDeployment({ ...small, seed: 1 });
    expect(r.found?.verdicts ?? []).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.spent.chars).toBeLessThanOrEqual(600);
    expect(r.spent.uploads).toBeLessThanOrEqual(4);
    expect(r.spent.creations).toBeLessThanOrEqual(3);
    expect(r.requests).toBeGreaterThan(0);
    expect(r.cleanup.left).toBe(0);
  }, 30_000);

  it('creates nothing without allowBillable', async () => {
    const r = await exploreDeployment({
      ...small,
      allowBillable: false,
      budgetCreations: undefined,
      seed: 2,
    });
    expect(r.limits.creations).toBe(0);
    expect(r.spent.creations).toBe(0);
  }, 30_000);

  it('the same seed gives the same sequences', async () => {
    const opts = { ...small, budgetChars: 200, budgetUploads: 2, budgetCreations: 1, seed: 7 };
    const a = await exploreDeployment(opts);
    const b = await exploreDeployment(opts);
    expect(a.trace.slice(0, 60)).toEqual(b.trace.slice(0, 60));
  }, 40_000);
});
