/**
 * The conformance suite's whole traffic (every case, the opt-in groups too) through the proxy to the
 * kit's mock, one run for two promises: the suite still passes and the proxy, judging every exchange,
 * finds no violation; and `startProxy({ writeProfile })` writes at close a profile of what it saw, no
 * hint given: a private file, the points only the facts made certain, each agreeing with the suite's
 * own (hinted) profile of the run.
 */
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProfiledRunResult, runConformance } from '../../conformance/index.js';
import { embeddedKeys } from '../../conformance/setup/embedded-mock.js';
import { includeNames } from '../../conformance/types.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import type { PointId } from '../../profile/points.js';
import type { Profile } from '../../profile/types.js';
import { type ProxyClosed, ProxySetupError, startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';

let dir: string;
let mock: MockServer;
let run: ProfiledRunResult;
let closed: ProxyClosed;
let report: ProxyReport;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-proxy-profile-'));
  file = join(dir, 'staging.profile.json');
  mock = await startMockServer({ port: 0, allowPrivateUrls: true });
  const proxy = await startProxy({ upstream: mock.url, port: 0, writeProfile: file });
  run = await runConformance({
    baseUrl: proxy.url,
    apiKey: embeddedKeys.main,
    keys: embeddedKeys,
    allowBillable: true,
    include: includeNames,
  });
  closed = await proxy.close();
  report = closed.report;
}, 180_000);
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

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

/** Points whose answer the suite's traffic leaves no doubt about, hint or none. */
const certain: readonly PointId[] = [
  'voice-save-statuses/10018',
  'voice-save-statuses/20010',
  'voice-save-statuses/20015',
  'voice-save-statuses/20016',
  'voice-save-statuses/20017',
  'voice-id-invalid-characters',
  'voice-save-data',
  'list-order',
  'page-size-out-of-range',
  'list-errors/unknown-cursor',
  'delete-response-body',
  'delete-response-body/missing',
  'pcm-header-names',
  'default-audio-format',
  'text-alias',
  'max-text-length',
  'max-text-length/refusal',
  'synthesis-errors/missing-text',
  'synthesis-errors/negative-speed',
  'upload-retry-after',
  'general-errors/malformed-json',
  'general-errors/unknown-path',
  'general-errors/wrong-method',
];

describe('the proxy writes a profile of the traffic it saw', () => {
  it('writes it at close, private, as the profile of a proxy session', async () => {
    expect(closed.files).toContain(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const written = JSON.parse(await readFile(file, 'utf8')) as Profile;
    expect(written).toEqual(closed.profile);
    expect(written.observed?.by).toBe('proxy');
  });

  it('holds the points the facts made certain, and nothing unsettled', () => {
    expect(certain.filter((p) => closed.profile?.points[p] === undefined)).toEqual([]);
    expect(closed.profile?.unsettled ?? []).toEqual([]);
  });

  it('agrees with the suite on every point both wrote, and writes nothing the suite did not see', () => {
    expect(run.ok).toBe(true);
    for (const [point, entry] of Object.entries(closed.profile?.points ?? {}))
      expect(entry?.choice, point).toEqual(run.profile.points[point as PointId]?.choice);
  });

  it('leaves out what only a hint could tell (20012 of an unknown key, a system voice, an unknown voice)', () => {
    for (const p of [
      'ref-audio-not-accessible',
      'delete-refused-status',
      'synthesis-errors/unknown-voice',
    ] as const)
      expect(closed.profile?.points[p], p).toBeUndefined();
  });

  it('refuses a folder or a symlink at the profile path before it listens', async () => {
    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    await expect(startProxy({ upstream: mock.url, port: 0, writeProfile: folder })).rejects.toThrow(
      ProxySetupError,
    );
    await expect(startProxy({ upstream: mock.url, port: 0, writeProfile: folder })).rejects.toThrow(
      /is a folder/,
    );
  });
});
