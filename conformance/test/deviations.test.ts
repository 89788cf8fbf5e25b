/**
 * The suite has teeth: with one deliberate deviation at a time between the suite and the mock, the
 * named case fails (and the run is not ok). A baseline run without deviation shows the same cases
 * pass, so no deviation is "caught" by a case that fails anyway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { type RunOptions, runConformance } from '../index.js';
import { embeddedKeys } from '../setup/embedded-mock.js';
import { kitFixtures } from '../setup/fixture-source.js';
import { serveReference } from '../setup/reference-server.js';
import type { FetchLike } from '../toolkit/http.js';
import { includeNames, type RunResult } from '../types.js';
import { deviating } from './deviation-kit.js';
import { round4Deviations } from './deviations-round4.js';
import { sessionDeviations } from './deviations-session.js';
import { teethDeviations, variations } from './deviations-teeth.js';
import { uploadDeviations } from './deviations-upload.js';
import { viewDeviations } from './deviations-views.js';
import { voiceDeviations } from './deviations-voices.js';

const deviations = [
  ...uploadDeviations,
  ...voiceDeviations,
  ...teethDeviations,
  ...sessionDeviations,
  ...viewDeviations,
  ...round4Deviations,
];
const realFetch: FetchLike = (req) => fetch(req);
let server: MockServer;
let reference: Awaited<ReturnType<typeof serveReference>>;

function options(only: readonly string[], fetchFn: FetchLike): RunOptions {
  return {
    baseUrl: server.url,
    apiKey: embeddedKeys.main,
    keys: embeddedKeys,
    allowBillable: true,
    include: includeNames,
    only,
    fetch: fetchFn,
    httpTransport: true,
    targetIsMock: false,
    referenceUrl: reference.url,
  };
}

async function freshRun(only: readonly string[], fetchFn: FetchLike): Promise<RunResult> {
  await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
  return runConformance(options(only, fetchFn));
}

const outcomeOf = (run: RunResult, id: string) => run.results.find((r) => r.id === id)?.outcome;

beforeAll(async () => {
  // The suite serves its reference on loopback: this mock may fetch it (as the embedded mock does).
  server = await startMockServer({ port: 0, allowPrivateUrls: true });
  const file = await kitFixtures('valid-10s');
  if (!file) throw new Error('the valid-10s fixture is missing');
  reference = await serveReference(file);
});
afterAll(async () => {
  await reference?.close();
  await server?.close();
});

describe('deviation harness', () => {
  it('has at least 15 deviations, each with a distinct name', () => {
    expect(deviations.length).toBeGreaterThanOrEqual(15);
    expect(new Set(deviations.map((d) => d.name)).size).toBe(deviations.length);
  });

  it('baseline: without deviation, every catching case passes against the mock', async () => {
    const ids = [...new Set([...deviations.map((d) => d.caughtBy), ...variations.map((v) => v.passes)])];
    const run = await freshRun(ids, realFetch);
    // An observing case that catches a deviation (a server error) ends observed when all is well.
    const clean = (o: string | undefined) => (o === 'observed' ? 'pass' : o);
    const outcomes = Object.fromEntries(ids.map((id) => [id, clean(outcomeOf(run, id))]));
    expect(outcomes).toEqual(Object.fromEntries(ids.map((id) => [id, 'pass'])));
  });

  it.each(deviations)('$name → caught by $caughtBy', async (d) => {
    const run = await freshRun(d.only, deviating(realFetch, d));
    const result = run.results.find((r) => r.id === d.caughtBy);
    const want = d.outcome ?? 'fail';
    expect(result?.outcome, JSON.stringify(result?.findings ?? run.results.map((r) => r.id))).toBe(want);
    if (want === 'fail') expect(run.ok).toBe(false);
    // A thrown error is not a catch: the case must end with findings, each schema pointer once.
    expect(result?.error).toBeUndefined();
    const messages = (result?.findings ?? []).map((f) => f.message);
    if (d.message)
      expect(
        messages.some((m) => d.message?.test(m)),
        messages.join('\n'),
      ).toBe(true);
    const schema = (result?.findings ?? []).filter((f) => f.pointer !== undefined).map((f) => f.message);
    expect(new Set(schema).size).toBe(schema.length);
  });

  it.each(variations)('$name → $passes still passes (no false failure)', async (v) => {
    const run = await freshRun(v.only, deviating(realFetch, v));
    const result = run.results.find((r) => r.id === v.passes);
    expect(result?.outcome, JSON.stringify(result?.findings ?? result?.error ?? null)).toBe('pass');
  });
});
