/**
 * The explorer against a round of deviations that only show after some state was built (depth, caches,
 * consistency, scopes, a 5xx at depth, pagination, timestamps: deep-deviations.ts), within the budget
 * flags a user would give (14 creations): each is found by a must verdict, a sample of the
 * reproductions replays (still failing against the deviant, passing against the clean mock), and the
 * allowed variations stay quiet.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { exploreDeployment, replayReproduction, writeExploreReports } from '../explore/index.js';
import { embeddedKeys } from '../setup/embedded-mock.js';
import type { FetchLike } from '../toolkit/http.js';
import { deepDeviations, deepVariations } from './deep-deviations.js';

let server: MockServer;
let dir: string;
const realFetch: FetchLike = (req) => fetch(req);
const budget = {
  allowBillable: true,
  budgetChars: 2_000,
  budgetUploads: 20,
  budgetCreations: 14,
  maxTimeSeconds: 10,
};
const options = (fetchFn: FetchLike) => ({
  ...budget,
  baseUrl: server.url,
  apiKey: embeddedKeys.main,
  keys: embeddedKeys,
  fetch: fetchFn,
});
const reset = () => fetch(`${server.url}/__mock/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'vk-explore-deep-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Reproductions replayed (the rest are found the same way; replaying all would double the time). */
const replayed = new Set([0, 4, 7, 9, 11, 15]);

describe('conformance --explore finds deviations that need depth', () => {
  it.each(deepDeviations.map((d, i) => ({ ...d, i })))(
    '$family: $name',
    async (d) => {
      await reset();
      const handle = d.make();
      const deviant: FetchLike = (req) => handle(req, realFetch);
      const r = await exploreDeployment({ ...options(deviant), seed: 1 });
      const rules = r.found?.verdicts.filter((v) => v.severity === 'must').map((v) => v.rule) ?? [];
      expect(r.ok, `${r.sequences} sequences, no finding`).toBe(false);
      expect(rules.length).toBeGreaterThan(0);
      expect(r.spent.creations).toBeLessThanOrEqual(budget.budgetCreations);
      if (!replayed.has(d.i)) return;
      const out = join(dir, String(d.i));
      await writeExploreReports(r, out);
      // The same deployment (its caches and counters kept) back in the state the reproduction starts
      // from: the voices and free uses it checks first.
      await reset();
      const again = await replayReproduction(join(out, 'explore-repro.json'), options(deviant));
      expect(again.outcome).toBe('fail');
      await reset();
      const fixed = await replayReproduction(join(out, 'explore-repro.json'), options(realFetch));
      expect(fixed.outcome).toBe('pass');
    },
    60_000,
  );

  it.each(deepVariations)(
    'allowed: $name gives no finding',
    async (v) => {
      await reset();
      const handle = v.make();
      const r = await exploreDeployment({
        ...options((req) => handle(req, realFetch)),
        seed: 1,
        maxTimeSeconds: 4,
      });
      expect(r.found?.verdicts ?? []).toEqual([]);
    },
    30_000,
  );
});
