/**
 * A scenario for the oracle's tests: a fixed sequence of requests that visits the states the oracle
 * judges (saves past the free uses, a cursor held across a delete, refusals that must change nothing,
 * a deleted voice asked to speak), sent to a "deployment" (a clean mock, or one behind a deviation) and
 * every exchange handed to the oracle.
 */
import { kitFixtures } from '../../conformance/setup/fixture-source.js';
import type { Verdict } from '../../judge/index.js';
import { defaultKeys } from '../../mocks/config/defaults.js';
import { manualClock } from '../../mocks/core/platform/clock.js';
import { createMockService, type MockService } from '../../mocks/core/service.js';
import { createOracle, type Oracle, type OracleKey, type OracleRequest } from '../index.js';

export type FetchLike = (req: Request) => Promise<Response>;

export const keys = {
  main: 'mock-key',
  noClone: 'mock-key-no-clone',
  otherProject: 'mock-key-other-project',
  otherOrg: 'mock-key-other-org',
} as const;

export const oracleKeys: Record<string, OracleKey> = Object.fromEntries(
  defaultKeys.map((k) => [
    k.key,
    {
      organization: k.organization,
      project: k.project,
      environment: k.environment,
      voiceCloning: k.capabilities.voiceCloning,
    },
  ]),
);

interface Sent {
  readonly status: number;
  readonly json: Record<string, unknown> | undefined;
}
type StepOf = (answers: readonly Sent[]) => OracleRequest | undefined;

const list =
  (key: string, size?: number, cursorFrom?: number): StepOf =>
  (answers) => {
    const q = new URLSearchParams();
    if (size !== undefined) q.set('page_size', String(size));
    if (cursorFrom !== undefined) {
      const data = answers[cursorFrom]?.json?.data as
        | { next_voice_id?: unknown; has_more?: unknown }
        | undefined;
      if (data?.has_more !== true || typeof data.next_voice_id !== 'string') return undefined;
      q.set('voice_id', data.next_voice_id);
    }
    const qs = q.toString();
    return { method: 'GET', path: `/v1/voice/list${qs ? `?${qs}` : ''}`, headers: { 'x-api-key': key } };
  };
const json =
  (path: string, key: string | undefined, body: unknown): StepOf =>
  () => ({
    method: 'POST',
    path,
    headers: { ...(key !== undefined ? { 'x-api-key': key } : {}), 'content-type': 'application/json' },
    json: body,
  });
const save =
  (key: string, id: string, from: number): StepOf =>
  (answers) => {
    const ref = (answers[from]?.json?.data as { object_key?: unknown } | undefined)?.object_key;
    return typeof ref === 'string'
      ? json('/v1/voice/save', key, { voice_id: id, ref_audio: ref })(answers)
      : undefined;
  };
const del =
  (key: string, id: string): StepOf =>
  () => ({
    method: 'DELETE',
    path: `/v1/voice/${encodeURIComponent(id)}`,
    headers: { 'x-api-key': key },
  });
const speak = (body: Record<string, unknown>) => json('/v1/text-to-speech', keys.main, body);
const speakWithoutKey = (body: Record<string, unknown>) => json('/v1/text-to-speech', undefined, body);
const upload =
  (key: string | undefined, fileName: string, bytes: Uint8Array): StepOf =>
  () => ({
    method: 'POST',
    path: '/v1/files/upload',
    headers: key !== undefined ? { 'x-api-key': key } : ({} as Record<string, string>),
    form: { scene: 'audio', fileName, bytes },
  });

/** Walk the whole list with pages of `size` from step `at` on: up to `pages` steps. */
const walk = (key: string, size: number, at: number, pages: number): StepOf[] =>
  Array.from({ length: pages }, (_, i) => (i === 0 ? list(key, size) : list(key, size, at + i - 1)));

export async function scenarioSteps(): Promise<StepOf[]> {
  const wav = (await kitFixtures('valid-3s'))?.bytes;
  if (!wav) throw new Error('the valid-3s fixture is missing');
  return [
    /* 0 */ list(keys.main),
    /* 1 */ upload(keys.main, 'valid-3s.wav', wav),
    /* 2 */ upload(keys.main, 'valid-3s.flac', wav),
    /* 3 */ upload(undefined, 'valid-3s.wav', wav),
    /* 4 */ upload(keys.main, 'valid-3s.FLAC', wav),
    /* 5 */ upload(keys.main, 'valid-3s.wav.flac', wav),
    /* 6 */ upload(keys.otherOrg, 'valid-3s.wav', wav),
    /* 7 */ list(keys.main),
    /* 8 */ speak({ generate_text: 'Hello there, this is the longest text.' }),
    /* 9 */ speak({ generate_text: 'Hello there.', voice_id: 'system_default' }),
    /* 10 */ save(keys.main, 'vk_one', 1),
    /* 11 */ save(keys.main, 'vk_two', 1),
    /* 12 */ save(keys.main, 'vk_one', 1),
    /* 13 */ save(keys.noClone, 'vk_noclone', 1),
    /* 14 */ save(keys.otherProject, 'vk_foreign', 1),
    /* 15 */ save(keys.main, `vk_${'x'.repeat(28)}`, 1),
    /* 16 */ save(keys.otherOrg, 'vk_theirs', 6),
    /* 17 */ list(keys.main, 1),
    /* 18 */ del(keys.main, 'vk_two'),
    /* 19 */ list(keys.main, 1, 17),
    /* 20 */ speak({ generate_text: 'Hello there.', voice_id: 'vk_one' }),
    /* 21 */ speak({ generate_text: 'Hello there.', voice_id: 'vk_two' }),
    /* 22 */ speak({ generate_text: 'Hello there.', speed: -1 }),
    /* 23 */ speak({ generate_text: 'Hello there.', speed: 0 }),
    /* 24 */ speakWithoutKey({ generate_text: 'Hello there.' }),
    /* 25 */ speak({ generate_text: 'Hello there.', voice_id: 'vk_one', audio_format: 'pcm' }),
    /* 26 */ save(keys.main, ' VK_Three ', 1),
    /* 27 */ save(keys.main, 'vk_four', 1),
    /* 28 */ save(keys.main, 'vk_five', 1),
    /* 29 */ del(keys.otherOrg, 'vk_one'),
    /* 30 */ del(keys.main, 'vk_ghost'),
    /* 31 */ del(keys.main, 'system_default'),
    /* 32 */ speak({ generate_text: 'Hello there.', voice_id: 'system_default' }),
    /* 33 */ speak({ text: 'Hello there.' }),
    /* 34 */ list(keys.otherOrg),
    ...walk(keys.main, 2, 35, 4),
    /* 39 */ list(keys.main),
    /* 40 */ list(keys.main),
    /* 41 */ list(keys.main),
  ];
}

/** A deployment: the kit's mock with its own manual clock, behind `wrap`. */
export function deployment(): { service: MockService; fetch: FetchLike } {
  const service = createMockService({ clock: manualClock(), seed: 7 });
  return { service, fetch: (req) => service.fetch(req) };
}

/** One deployment and one oracle for a file of tests, both reset before each scenario. */
export async function harness() {
  const d = deployment();
  const oracle = await createOracle({ keys: oracleKeys, seed: 3 }, d.service.clock.now());
  return {
    async run(wrap: (req: Request, next: FetchLike) => Promise<Response> = (req, next) => next(req)) {
      await d.service.reset();
      await oracle.reset();
      return runScenario(
        (req) => wrap(req, d.fetch),
        () => d.service.clock.now(),
        oracle,
      );
    },
    oracle,
    async close() {
      await oracle.close();
      await d.service.close();
    },
  };
}

/** Runs the scenario against `fetch` and hands every exchange to the oracle (reset before). */
export async function runScenario(
  fetchFn: FetchLike,
  clock: () => number,
  oracle: Oracle,
): Promise<Verdict[]> {
  const steps = await scenarioSteps();
  const answers: Sent[] = [];
  const verdicts: Verdict[] = [];
  for (const [i, step] of steps.entries()) {
    const request = step(answers);
    if (!request) {
      answers.push({ status: 0, json: undefined });
      continue;
    }
    const res = await fetchFn(toRequest(request));
    const type = res.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await res.arrayBuffer());
    const parsed = /json/.test(type)
      ? (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>)
      : undefined;
    answers.push({ status: res.status, json: parsed });
    const audio = /wav/.test(type)
      ? { kind: 'wav' as const, bytes: bytes.byteLength, seconds: wavSeconds(bytes) }
      : /mpeg/.test(type)
        ? { kind: 'mp3' as const, bytes: bytes.byteLength }
        : undefined;
    verdicts.push(
      ...(await oracle.observe({
        seq: i + 1,
        at: clock(),
        request,
        answer: { status: res.status, json: parsed, audio },
      })),
    );
  }
  return verdicts;
}

function toRequest(r: OracleRequest): Request {
  let body: BodyInit | undefined;
  if (r.form) {
    const form = new FormData();
    form.set('scene', r.form.scene);
    form.set('file', new Blob([r.form.bytes as Uint8Array<ArrayBuffer>]), r.form.fileName);
    body = form;
  } else if (r.json !== undefined) body = JSON.stringify(r.json);
  return new Request(`http://deployment.test${r.path}`, {
    method: r.method,
    headers: r.headers,
    ...(body ? { body } : {}),
  });
}

function wavSeconds(b: Uint8Array): number | undefined {
  const rate =
    b.byteLength >= 44
      ? ((b[28] ?? 0) | ((b[29] ?? 0) << 8) | ((b[30] ?? 0) << 16) | ((b[31] ?? 0) << 24)) >>> 0
      : 0;
  return rate > 0 ? (b.byteLength - 44) / rate : undefined;
}
