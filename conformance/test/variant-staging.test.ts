/**
 * A profile written by the suite holds the deployment's choices: against a "staging" that keeps the
 * contract but chose differently on many spec-silent points (variant-staging.ts) the suite passes and
 * its profile holds each of the staging's choices; against the plain mock it holds the mock's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.js';
import { errors, pcmHeaders } from '../../openapi/contract.js';
import { type PointId, pointIds, points } from '../../profile/points.js';
import type { Choice } from '../../profile/types.js';
import { type ProfiledRunResult, runConformance } from '../index.js';
import { embeddedKeys } from '../setup/embedded-mock.js';
import { kitFixtures } from '../setup/fixture-source.js';
import { serveReference } from '../setup/reference-server.js';
import type { FetchLike } from '../toolkit/http.js';
import { includeNames } from '../types.js';
import { probeChoices } from './calibration-probes.js';
import { createVariantStaging, loopbackOnly, variantChoices } from './variant-staging.js';

let reference: Awaited<ReturnType<typeof serveReference>>;
let staging: ProfiledRunResult;
let plain: ProfiledRunResult;

/** A whole run in process, as against a deployment (no mock-only case). */
function run(fetchFn: FetchLike): Promise<ProfiledRunResult> {
  return runConformance({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: embeddedKeys.main,
    keys: embeddedKeys,
    allowBillable: true,
    calibrate: true,
    include: includeNames,
    fetch: fetchFn,
    httpTransport: false,
    targetIsMock: false,
    referenceUrl: reference.url,
    // The in-process mock's clock stands at 2026-01-01T00:00:00Z unless advanced.
    now: () => Date.parse('2026-01-01T00:00:00Z'),
  });
}

const problems = (r: ProfiledRunResult) =>
  r.results
    .filter((c) => c.outcome === 'fail' || c.outcome === 'error')
    .map((c) => ({ id: c.id, error: c.error, findings: c.findings.map((f) => f.message) }));

/** The oracle's findings, any severity: an allowed variation is no difference from the contract's model. */
const oracleFindings = (r: ProfiledRunResult) =>
  r.results.flatMap((c) =>
    c.findings.filter((f) => f.message.startsWith('oracle.')).map((f) => `${c.id}: ${f.message}`),
  );

beforeAll(async () => {
  const file = await kitFixtures('valid-10s');
  if (!file) throw new Error('the valid-10s fixture is missing');
  reference = await serveReference(file);
  staging = await run(createVariantStaging().fetch);
  const mock = createMockService({
    allowPrivateUrls: true,
    fetch: loopbackOnly,
    logger: { error: () => undefined },
  });
  plain = await run((req) => mock.fetch(req));
  // Two whole calibrating runs: ~2 minutes alone on a loaded 2-core machine, twice that beside another file.
}, 600_000);
afterAll(async () => {
  await reference?.close();
});

/** The mock's own choice on a point, from the contract and its documented defaults (docs/spec-silent.md). */
function mockChoice(point: PointId): Choice | undefined {
  const info: { shape: string; error?: keyof typeof errors } = points[point];
  if (info.error && info.shape === 'refusal')
    return { status: errors[info.error].status, error_code: errors[info.error].code };
  if (info.error && info.shape === 'status') return { status: errors[info.error].status };
  const own: Partial<Record<PointId, Choice>> = {
    'voice-save-data': { data: { voice_id: '{voice_id}' } },
    'list-order': { order: 'oldest-first' },
    'delete-response-body': { data: null },
    'delete-response-body/missing': { status: 200 },
    'pcm-header-names': pcmHeaders,
    'default-audio-format': { complete: 'wav', stream: 'wav' },
    'text-alias': { accepted: false },
    'max-text-length': { characters: 10_000 },
    'upload-retry-after': { header: true },
    'reference-duration-boundaries': { shortest: 'inclusive', longest: 'inclusive' },
  };
  return own[point];
}

describe('the suite against a staging that chose differently', () => {
  it('passes: no failure and no error', () => {
    expect(problems(staging)).toEqual([]);
    expect(oracleFindings(staging)).toEqual([]);
    expect(staging.ok).toBe(true);
  });

  it.each(Object.entries(variantChoices))('its profile holds the staging choice on %s', (point, choice) => {
    expect(staging.profile.points[point as PointId]?.choice).toEqual(choice);
  });

  it('holds nothing unsettled, and on the points it did not vary the mock’s own choice', () => {
    expect(staging.profile.unsettled ?? []).toEqual([]);
    for (const point of pointIds.filter((p) => !(p in variantChoices)))
      expect(staging.profile.points[point]?.choice, point).toEqual(plain.profile.points[point]?.choice);
  });

  it('names the evidence of each point: its exchange, its answer and the case that sent it', () => {
    const entry = staging.profile.points['voice-save-statuses/20016'];
    expect(entry?.evidence?.length).toBeGreaterThan(0);
    for (const e of entry?.evidence ?? [])
      expect(e).toMatchObject({ method: 'POST', path: '/v1/voice/save', status: 422, error_code: 20016 });
    expect(entry?.evidence?.map((e) => e.case)).toContain('voice-save.reference.too-short');
  });
});

describe('the suite against the plain mock', () => {
  it('passes and observes every point of points.ts', () => {
    expect(problems(plain)).toEqual([]);
    expect(oracleFindings(plain)).toEqual([]);
    expect(pointIds.filter((p) => !plain.profile.points[p])).toEqual([]);
    expect(plain.profile.unsettled ?? []).toEqual([]);
  });

  it.each(pointIds)('its profile holds the mock’s own choice on %s', (point) => {
    expect(plain.profile.points[point]?.choice).toEqual(mockChoice(point));
  });
});

/** One probe's answer, as a client sees it: status, code, `data` (a list as its ids), type, PCM names. */
async function answer(fetchFn: FetchLike, method: string, path: string, body?: unknown, raw?: string) {
  const headers: Record<string, string> = { 'x-api-key': embeddedKeys.main };
  let sent: BodyInit | undefined;
  if (body instanceof FormData) sent = body;
  else if (raw !== undefined || body !== undefined) {
    sent = raw ?? JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetchFn(new Request(`http://127.0.0.1:9${path}`, { method, headers, body: sent }));
  const type = (res.headers.get('content-type') ?? '').split(';')[0];
  const pcm = [...res.headers.keys()].filter((k) => /rate|channel|bit/.test(k)).sort();
  if (type !== 'application/json') {
    // Status, type and header names are what a client branches on; the audio itself is not compared,
    // so it is not rendered to the end (a 5,000-character stream is ~56 MB of WAV).
    await res.body?.cancel();
    return { status: res.status, type, pcm };
  }
  const json = (await res.json()) as { error_code: number; data: unknown };
  const data = json.data as { list?: Array<{ voice_id: string }>; object_key?: string } | null;
  const shown = data?.list ? { ...data, list: data.list.map((v) => v.voice_id) } : data;
  return { status: res.status, code: json.error_code, data: shown, type };
}

/** The same requests, in the same order, to a deployment: what a client tested against it sees. */
async function probes(fetchFn: FetchLike): Promise<unknown[]> {
  const upload = async (role: 'valid-10s' | 'short-2.9s') => {
    const file = await kitFixtures(role);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array(file?.bytes ?? [])]), file?.name);
    const up = await answer(fetchFn, 'POST', '/v1/files/upload', form);
    return (up.data as { object_key: string }).object_key;
  };
  const good = await upload('valid-10s');
  const short = await upload('short-2.9s');
  const out: unknown[] = [];
  const ask = async (method: string, path: string, body?: unknown, raw?: string) => {
    const a = await answer(fetchFn, method, path, body, raw);
    out.push({ ask: `${method} ${path} ${raw ?? JSON.stringify(body ?? '').slice(0, 60)}`, ...a });
  };
  await ask('POST', '/v1/voice/save', { voice_id: 'first', ref_audio: good });
  await ask('POST', '/v1/voice/save', { voice_id: 'second', ref_audio: good });
  await ask('POST', '/v1/voice/save', { voice_id: 'third', ref_audio: good });
  await ask('POST', '/v1/voice/save', { voice_id: 'second', ref_audio: good });
  await ask('POST', '/v1/voice/save', { voice_id: 'short', ref_audio: short });
  await ask('POST', '/v1/voice/save', { voice_id: 'nokey', ref_audio: 'no-such-object-key' });
  await ask('GET', '/v1/voice/list');
  await ask('GET', '/v1/voice/list?page_size=2');
  await ask('GET', '/v1/voice/list?page_size=25');
  await ask('GET', '/v1/voice/list?voice_id=no-such-cursor');
  await ask('DELETE', '/v1/voice/first');
  await ask('DELETE', '/v1/voice/first');
  await ask('DELETE', '/v1/voice/system_default');
  await ask('POST', '/v1/text-to-speech', { text: 'Hello there.' });
  await ask('POST', '/v1/text-to-speech', { generate_text: 'Hello there.' });
  await ask('POST', '/v1/text-to-speech/stream', { generate_text: 'Hello there.' });
  await ask('POST', '/v1/text-to-speech', { generate_text: 'Hello there.', audio_format: 'pcm' });
  await ask('POST', '/v1/text-to-speech/stream', { generate_text: 'x'.repeat(5000) });
  await ask('POST', '/v1/text-to-speech/stream', { generate_text: 'x'.repeat(5001) });
  await ask('POST', '/v1/text-to-speech', { voice_id: 'system_default' });
  await ask('POST', '/v1/text-to-speech', { generate_text: 'Hello there.', voice_id: 'nobody' });
  await ask('POST', '/v1/text-to-speech', undefined, '{"generate_text": "Hel');
  await ask('GET', '/v1/voice-kit-no-such-endpoint');
  await ask('PUT', '/v1/voice/list');
  return out;
}

describe('the loop: the mock started with the profile of the staging answers as the staging does', () => {
  it('gives the same status, code, data, order, type and PCM header names to every probe', async () => {
    const calibrated = createMockService({
      profile: staging.profile,
      allowPrivateUrls: true,
      fetch: loopbackOnly,
      logger: { error: () => undefined },
    });
    const expected = await probes(createVariantStaging().fetch);
    const got = await probes((req) => calibrated.fetch(req));
    expect(got).toEqual(expected);
    // The probes do tell the two apart: the mock without the profile answers otherwise.
    const own = createMockService({
      allowPrivateUrls: true,
      fetch: loopbackOnly,
      logger: { error: () => undefined },
    });
    expect(await probes((req) => own.fetch(req))).not.toEqual(expected);
  }, 300_000);

  it('answers a client’s wider round as the staging does: every save refusal, both endpoints, lengths around the limit, the upload 429', async () => {
    const options = { allowPrivateUrls: true, fetch: loopbackOnly, logger: { error: () => undefined } };
    const keys = { main: embeddedKeys.main, noClone: embeddedKeys.noClone ?? '' };
    const round = (fetchFn: FetchLike) => probeChoices(fetchFn, 'http://127.0.0.1:9', keys);
    const calibrated = createMockService({ ...options, profile: staging.profile });
    const expected = await round(createVariantStaging().fetch);
    expect(await round((req) => calibrated.fetch(req))).toEqual(expected);
    // Each varied point shows in the round: without the profile, these probes answer otherwise.
    const own = await round((req) => createMockService(options).fetch(req));
    const differ = Object.keys(expected).filter(
      (name) => JSON.stringify(own[name]) !== JSON.stringify(expected[name]),
    );
    expect(differ.length).toBeGreaterThanOrEqual(20);
  }, 300_000);
});
