/**
 * The explorer has teeth: each deviation only a sequence shows, behind a mock that otherwise conforms,
 * is found (not ok) with a reproduction; replaying it against the same deployment fails again, and
 * against the clean mock passes. An allowed variation stays quiet. Small budgets, short --max-time.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { exploreDeployment, replayReproduction, writeExploreReports } from '../explore/index.js';
import { embeddedKeys } from '../setup/embedded-mock.js';
import type { FetchLike } from '../toolkit/http.js';
import { allowedVariation, sequenceDeviations } from './explore-deviations.js';

let server: MockServer;
let dir: string;
const realFetch: FetchLike = (req) => fetch(req);
const budget = {
  allowBillable: true,
  budgetChars: 2_000,
  budgetUploads: 20,
  budgetCreations: 20,
  maxTimeSeconds: 12,
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
  dir = await mkdtemp(join(tmpdir(), 'vk-explore-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('conformance --explore finds what only a sequence shows', () => {
  it.each(sequenceDeviations)(
    '$name',
    async (d) => {
      await reset();
      const handle = d.make();
      const deviant: FetchLike = (req) => handle(req, realFetch);
      const r = await exploreDeployment({ ...options(deviant), seed: 1 });
      expect(r.ok).toBe(false);
      expect(r.found?.verdicts.map((v) => v.rule).some((rule) => d.rules.includes(rule))).toBe(true);
      expect(r.spent.chars).toBeLessThanOrEqual(budget.budgetChars);
      expect(r.spent.creations).toBeLessThanOrEqual(budget.budgetCreations);
      const out = join(dir, d.name.replace(/\W+/g, '-'));
      const paths = await writeExploreReports(r, out);
      expect(paths.map((p) => p.slice(out.length + 1))).toEqual([
        'explore.json',
        'explore.junit.xml',
        'explore.md',
        'explore-repro.json',
        'explore-repro.sh',
      ]);
      expect(await readFile(join(out, 'explore-repro.sh'), 'utf8')).toContain('curl');
      const repro = join(out, 'explore-repro.json');
      const again = await replayReproduction(repro, options(deviant));
      expect(again.ok).toBe(false);
      // Still deviates: not "could not reproduce" (its preconditions held).
      expect(again.outcome).toBe('fail');
      await reset();
      const fixed = await replayReproduction(repro, options(realFetch));
      expect(fixed.verdicts).toEqual([]);
      expect(fixed.reason).toBeUndefined();
      expect(fixed.ok).toBe(true);
      expect(fixed.outcome).toBe('pass');
    },
    60_000,
  );

  it('bills no more than its budget, as the ledger of the mock counts it', async () => {
    await reset();
    const r = await exploreDeployment({
      ...options(realFetch),
      seed: 3,
      budgetChars: 300,
      budgetCreations: 4,
      maxTimeSeconds: 8,
    });
    const ledger = (await (await fetch(`${server.url}/__mock/ledger`)).json()) as {
      data: {
        accounts: Record<
          string,
          { freeUsesConsumed: number; chargedCreations: unknown[]; synthesizedCharacters: number }
        >;
      };
    };
    const accounts = Object.values(ledger.data.accounts);
    const chars = accounts.reduce((n, a) => n + a.synthesizedCharacters, 0);
    const creations = accounts.reduce((n, a) => n + a.freeUsesConsumed + a.chargedCreations.length, 0);
    expect(r.ok).toBe(true);
    expect(chars).toBeGreaterThan(0);
    expect(chars).toBeLessThanOrEqual(300);
    expect(creations).toBeLessThanOrEqual(4);
  }, 30_000);

  it('stays quiet on an allowed variation (404 for a voice that never existed)', async () => {
    await reset();
    const handle = allowedVariation();
    const r = await exploreDeployment({
      ...options((req) => handle(req, realFetch)),
      seed: 1,
      maxTimeSeconds: 6,
    });
    expect(r.found?.verdicts ?? []).toEqual([]);
  }, 30_000);
});
