/**
 * Probes of the points a calibration profile carries, as a client would meet them: each probe's
 * observable answer (status, error_code, `data`, list order, the headers that differ between
 * deployments). Two deployments that made the same choices give equal results; the calibration loop
 * test compares a "staging" with the mock started from the profile the suite wrote against it.
 */
import { loadFixture } from '../../fixtures/index.js';

type FetchFn = (request: Request) => Promise<Response>;

export interface ProbeKeys {
  readonly main: string;
  readonly noClone: string;
}

/** What one probe saw: the parts of an answer a client branches on. */
export interface Seen {
  readonly status: number;
  readonly error_code?: unknown;
  readonly data?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const audioHeaders = /^x-(?!mock)|^retry-after$/i;

async function seen(res: Response): Promise<Seen> {
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const headers = Object.fromEntries(
    [...res.headers].filter(([name]) => audioHeaders.test(name)).map(([n, v]) => [n.toLowerCase(), v]),
  );
  if (!contentType.includes('json')) {
    await res.body?.cancel();
    return { status: res.status, contentType, headers };
  }
  const body = (await res.json()) as { error_code?: unknown; data?: unknown };
  // Retry-After's number depends on the clock; whether it is there is the choice.
  if (headers['retry-after'] !== undefined) headers['retry-after'] = 'present';
  return { status: res.status, error_code: body.error_code, data: body.data, contentType, headers };
}

/**
 * Sends every probe to one deployment (fresh, or at least without the probe's voice ids) and returns
 * what each saw, by name. Voices it creates are deleted at the end.
 */
export async function probeChoices(
  fetchFn: FetchFn,
  base: string,
  keys: ProbeKeys,
  prefix = 'calib',
): Promise<Record<string, Seen | string[]>> {
  const call = async (method: string, path: string, body?: unknown, key = keys.main, raw?: string) => {
    const headers: Record<string, string> = { 'X-API-Key': key };
    if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (raw !== undefined) init.body = raw;
    else if (body !== undefined) init.body = JSON.stringify(body);
    return fetchFn(new Request(`${base}${path}`, init));
  };
  const upload = async (fixture: string, name: string): Promise<string> => {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([await loadFixture(fixture)]), name);
    const res = await fetchFn(
      new Request(`${base}/v1/files/upload`, {
        method: 'POST',
        headers: { 'X-API-Key': keys.main },
        body: form,
      }),
    );
    const env = (await res.json()) as { data?: { object_key?: string } };
    const key = env.data?.object_key;
    if (!key) throw new Error(`upload of ${fixture} failed: HTTP ${res.status}`);
    return key;
  };
  const out: Record<string, Seen | string[]> = {};
  const save = (voice_id: string, ref_audio: string, key?: string) =>
    call('POST', '/v1/voice/save', { voice_id, ref_audio }, key);

  const good = await upload('valid-10s', 'good.wav');
  const [a, b] = [`${prefix}_a`, `${prefix}_b`];
  out.saveData = await seen(await save(a, good));
  out.duplicate = await seen(await save(a, good));
  out.saveB = await seen(await save(b, good));
  for (const [fixture, name] of [
    ['too-short-2.9s', 'short.wav'],
    ['too-long-60.5s', 'long.wav'],
    ['silence-10s', 'silence.wav'],
    ['long-pause-8s', 'pause.wav'],
    ['corrupt-wav', 'corrupt.wav'],
    ['valid-3s', 'three.wav'],
    ['valid-60s', 'sixty.wav'],
  ] as const) {
    out[`save ${fixture}`] = await seen(
      await save(`${prefix}_${fixture.replace(/\W/g, '')}`.slice(0, 30), await upload(fixture, name)),
    );
  }
  out.invalidId = await seen(await save('bad id!', good));
  out.unknownRef = await seen(await save(`${prefix}_c`, 'no-such-object-key'));
  out.noClone = await seen(await save(`${prefix}_d`, good, keys.noClone));

  const listed = (await (await call('GET', '/v1/voice/list?page_size=20')).json()) as {
    data?: { list?: { voice_id: string }[] };
  };
  out.order = (listed.data?.list ?? []).map((v) => v.voice_id).filter((id) => id === a || id === b);
  out.pageSize0 = await seen(await call('GET', '/v1/voice/list?page_size=0'));
  out.pageSize21 = await seen(await call('GET', '/v1/voice/list?page_size=21'));
  out.unknownCursor = await seen(await call('GET', '/v1/voice/list?voice_id=never_returned_cursor'));

  const tts = (endpoint: string, body: unknown) => call('POST', `/v1/text-to-speech${endpoint}`, body);
  for (const endpoint of ['', '/stream']) {
    out[`defaultFormat ${endpoint}`] = await seen(await tts(endpoint, { generate_text: 'Hello there.' }));
    out[`pcm ${endpoint}`] = await seen(
      await tts(endpoint, { generate_text: 'Hello.', audio_format: 'pcm' }),
    );
    out[`textAlias ${endpoint}`] = await seen(await tts(endpoint, { text: 'Hello there.' }));
    out[`unknownVoice ${endpoint}`] = await seen(
      await tts(endpoint, { generate_text: 'Hi.', voice_id: 'no_such_voice_x' }),
    );
    out[`missingText ${endpoint}`] = await seen(await tts(endpoint, { voice_id: 'system_default' }));
    out[`negativeSpeed ${endpoint}`] = await seen(await tts(endpoint, { generate_text: 'Hi.', speed: -1 }));
    out[`language ${endpoint}`] = await seen(
      await tts(endpoint, { generate_text: 'Hi.', language: 'xx-none' }),
    );
  }
  for (const n of [4_999, 5_000, 5_001, 10_000, 10_001]) {
    out[`length ${n}`] = await seen(
      await tts('/stream', { generate_text: 'a'.repeat(n), audio_format: 'pcm' }),
    );
  }
  out.malformedJson = await seen(
    await call('POST', '/v1/text-to-speech', undefined, keys.main, '{"generate_text":'),
  );
  out.unknownPath = await seen(await call('GET', '/v1/no-such-endpoint'));
  out.wrongMethod = await seen(await call('PUT', '/v1/voice/list'));

  out.deleteData = await seen(await call('DELETE', `/v1/voice/${a}`));
  out.deleteMissing = await seen(await call('DELETE', `/v1/voice/${a}`));
  out.deleteSystem = await seen(await call('DELETE', '/v1/voice/system_default'));
  for (const id of [b, `${prefix}_valid3s`, `${prefix}_valid60s`]) await call('DELETE', `/v1/voice/${id}`);
  // Last, since it spends the hour's upload quota: does the 429 say when to retry?
  for (let i = 0; i < 40; i++) {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array(64)]), 'tiny.wav');
    const res = await fetchFn(
      new Request(`${base}/v1/files/upload`, {
        method: 'POST',
        headers: { 'X-API-Key': keys.main },
        body: form,
      }),
    );
    if (res.status !== 429) {
      await res.body?.cancel();
      continue;
    }
    out.uploadLimited = await seen(res);
    break;
  }
  return out;
}
