/**
 * The conformance suite's whole traffic (every case, the opt-in groups too) through the proxy to the
 * kit's mock: the suite still passes, and the proxy, judging every exchange, finds no violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/index.js';
import type { RunResult } from '../../conformance/types.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { type ProxyServer, startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';

let mock: MockServer;
let proxy: ProxyServer;
let run: RunResult;
let report: ProxyReport;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  proxy = await startProxy({ upstream: mock.url, port: 0 });
  run = await runConformance({
    baseUrl: proxy.url,
    apiKey: 'mock-key',
    allowBillable: true,
    include: ['rate-limit', 'large-upload', 'many-voices'],
    keys: {
      noClone: 'mock-key-no-clone',
      otherProject: 'mock-key-other-project',
      otherEnv: 'mock-key-other-env',
      otherOrg: 'mock-key-other-org',
    },
  });
  report = (await proxy.close()).report;
}, 120_000);
afterAll(() => mock.close());

describe('the conformance suite through the proxy to the mock', () => {
  it('passes as it does directly', () => {
    expect(run.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => r.id)).toEqual(
      [],
    );
    expect(run.counts.pass).toBeGreaterThan(80);
  });

  it('gives zero violations over every exchange of the run', () => {
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.exchanges).toBeGreaterThan(300);
    // Judged, not waved through: most exchanges route to an operation and carry an answer.
    const judged = report.exchanges.filter(
      (e) => e.operationId !== null && e.status !== null && e.aborted === null,
    );
    expect(judged.length).toBeGreaterThan(report.counts.exchanges * 0.9);
    expect(new Set(judged.map((e) => e.operationId)).size).toBe(6);
    // The suite's deliberately bad requests are reported on their exchanges, not as violations.
    expect(report.exchanges.filter((e) => e.requestProblems.length > 0).length).toBeGreaterThan(20);
  });
});
