import { describe, expect, it } from 'vitest';
import { synthesizeToBytes, systemVoices } from '../../../audio/index.js';
import { jsonAnswer } from '../answer/answer.js';
import { createMockService, type MockService } from '../service.js';
import { answerCheckOf } from '../state/answer-check.js';
import { keepExchange } from '../state/exchange.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read answer data by path
type Body = { status: number; error_code: number; error_message: string; data: any };
const quiet = { logger: { error: () => {} } };
const call = async (target: MockService, path: string, init: RequestInit = {}): Promise<Body> => {
  const res = await target.fetch(new Request(`http://mock.test${path}`, init));
  return { status: res.status, ...((await res.json()) as Omit<Body, 'status'>) };
};
const key = 'mock-key-other-env';
const withKey = (init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'X-API-Key': key, ...init.headers },
});
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const reference = synthesizeToBytes({
  text: 'This is my reference voice, recorded for cloning. It is long enough.',
  voice: systemVoices[0] as (typeof systemVoices)[0],
  format: 'wav',
});
const lastSeq = async (target: MockService) => (await call(target, '/__mock/state')).data.requests.lastSeq;

describe('GET /__mock/requests/<seq>: one request in full', () => {
  it('shows the URL with its query, headers with the key masked, and the JSON answer', async () => {
    const target = createMockService(quiet);
    await call(target, '/v1/voice/list?page_size=2', withKey({ headers: { 'X-Trace': 'abc' } }));
    const { data } = await call(target, `/__mock/requests/${await lastSeq(target)}`);
    expect(data.path).toBe('/v1/voice/list');
    expect(data.query).toBe('?page_size=2');
    expect(data.request.url).toBe('http://mock.test/v1/voice/list?page_size=2');
    const headers = Object.fromEntries(
      data.request.headers.map((h: { name: string; value: string }) => [h.name, h.value]),
    );
    expect(headers['x-api-key']).toBe('mo…nv');
    expect(headers['x-trace']).toBe('abc');
    expect(JSON.stringify(data)).not.toContain(key);
    expect(JSON.parse(data.answer.body).succeed).toBe(true);
    expect(data.answer.headers).toContainEqual({
      name: 'Content-Type',
      value: expect.stringContaining('application/json'),
    });
    expect(data.verdict).toEqual({ ok: true, problems: [], checked: 'body' });
  });

  it('keeps a JSON request body, valid or not, up to 4,096 characters', async () => {
    const target = createMockService(quiet);
    const sent = JSON.stringify({ generate_text: 'x'.repeat(5000), speed: -1 });
    await call(target, '/v1/text-to-speech', withKey({ ...json({}), body: sent }));
    const seq = await lastSeq(target);
    const { data } = await call(target, `/__mock/requests/${seq}`);
    expect(data.status).toBe(400);
    expect(data.request.body.text).toHaveLength(4096);
    expect(data.request.body).toMatchObject({ truncated: true, chars: sent.length });
    expect(data.request.body.text).toBe(sent.slice(0, 4096));
    await call(target, '/v1/voice/save', withKey(json({ voice_id: 'a', ref_audio: 42 })));
    const refused = await call(target, `/__mock/requests/${seq + 1}`);
    expect(refused.data.request.body).toEqual({
      text: '{"voice_id":"a","ref_audio":42}',
      chars: 31,
      truncated: false,
    });
  });

  it('summarises an upload form (field names, file name, size, sniffed container), never its bytes', async () => {
    const target = createMockService(quiet);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([reference.slice()]), 'ref.wav');
    await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    const { data } = await call(target, `/__mock/requests/${await lastSeq(target)}`);
    expect(data.request.upload).toEqual({
      fields: ['scene', 'file'],
      fileName: 'ref.wav',
      fileBytes: reference.byteLength,
      scene: 'audio',
      container: 'wav',
    });
    expect(data.request.body).toBeNull();
  });

  it('describes an audio answer by format, duration and size, without its bytes', async () => {
    const target = createMockService(quiet);
    await call(target, '/v1/voice/list', withKey());
    const res = await target.fetch(
      new Request(
        'http://mock.test/v1/text-to-speech',
        withKey(json({ generate_text: 'Hello there.', audio_format: 'wav' })),
      ),
    );
    const bytes = (await res.arrayBuffer()).byteLength;
    const { data } = await call(target, `/__mock/requests/${await lastSeq(target)}`);
    expect(data.answer.audio.format).toBe('wav');
    expect(data.answer.audio.bytes).toBe(bytes);
    expect(data.answer.audio.durationSeconds).toBeCloseTo((bytes - 44) / 48_000, 2);
    expect(data.answer.body).toBeNull();
    expect(data.verdict.ok).toBe(true);
  });

  it('answers 404 for a number not in the log', async () => {
    const target = createMockService(quiet);
    const answer = await call(target, '/__mock/requests/99');
    expect([answer.status, answer.error_code]).toEqual([404, 10001]);
    expect(answer.error_message).toContain('not in the log');
  });
});

describe('what the journal keeps stays bounded whatever is sent', () => {
  it('keeps 4,096 characters of a 130 KB body, 2,048 of a long URL, 16 part names, no large answer', async () => {
    const target = createMockService(quiet);
    // Just under the JSON body cap (136,384 bytes at the default text length): read, refused, journaled.
    const huge = JSON.stringify({ generate_text: 'y'.repeat(130_000), speed: -1 });
    await call(target, '/v1/text-to-speech', withKey({ ...json({}), body: huge }));
    await call(target, `/v1/voice/list?x=${'q'.repeat(10_000)}`, withKey());
    const form = new FormData();
    for (let i = 0; i < 40; i++) form.append(`extra${i}`, 'v');
    await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    // A refusal of a 64 KiB voice_id: its message shows only the id's start, so the answer is kept.
    await call(target, '/v1/voice/save', withKey(json({ voice_id: 'v'.repeat(65_536), ref_audio: 'obj_x' })));
    const detail = async (seq: number) => (await call(target, `/__mock/requests/${seq}`)).data;
    expect((await detail(1)).request.body.text).toHaveLength(4096);
    expect((await detail(2)).request.url).toHaveLength(2048);
    expect((await detail(2)).query.length).toBeLessThanOrEqual(2048);
    expect((await detail(3)).request.upload.fields).toHaveLength(16);
    const echoed = await detail(4);
    expect(echoed.status).toBe(400);
    expect(echoed.answer.body.length).toBeLessThan(1024);
    expect(echoed.verdict.ok).toBe(true);
  });

  it('keeps no JSON answer over 32 KiB (an answer that echoed a 64 KiB value used to be one)', () => {
    const request = { method: 'POST', url: 'http://mock.test/v1/voice/save', headers: new Headers() };
    const large = jsonAnswer(400, {
      error_code: 10001,
      error_message: 'v'.repeat(65_536),
      succeed: false,
      data: null,
    });
    expect(keepExchange(request, large, undefined).answerJson).toBeNull();
    const small = jsonAnswer(400, {
      error_code: 10001,
      error_message: 'v'.repeat(1000),
      succeed: false,
      data: null,
    });
    expect(keepExchange(request, small, undefined).answerJson).not.toBeNull();
  });

  it('masks the control token and an Authorization header as it masks keys', async () => {
    const target = createMockService(quiet);
    const headers = {
      'X-Mock-Control-Token': 'secret-control-token',
      Authorization: 'Bearer app-secret-token',
    };
    await call(target, '/v1/voice/list', withKey({ headers }));
    const { data } = await call(target, '/__mock/requests/1');
    expect(JSON.stringify(data)).not.toContain('secret-control-token');
    expect(JSON.stringify(data)).not.toContain('app-secret');
    expect(data.request.headers).toContainEqual({ name: 'x-mock-control-token', value: 'se…en' });
    expect(data.request.headers).toContainEqual({ name: 'authorization', value: 'Be…en' });
  });

  it('masks cookies, token headers, any header named like a secret, and secret query parameters', async () => {
    const target = createMockService(quiet);
    const secrets = {
      Cookie: 'session=cookie-secret-value-1',
      'X-Auth-Token': 'auth-token-secret-value-2',
      'X-Api-Token': 'api-token-secret-value-3',
      'X-Client-Secret': 'client-secret-value-44',
      'Proxy-Authorization': 'Basic proxy-secret-value-5',
    };
    await call(
      target,
      '/v1/voice/list?page_size=5&api_key=query-key-secret-6&access_token=query-token-secret-7&apikey=q8-secret-value-8',
      withKey({ headers: secrets }),
    );
    const { data } = await call(target, '/__mock/requests/1');
    const text = JSON.stringify(data);
    for (const secret of [
      ...Object.values(secrets),
      'query-key-secret-6',
      'query-token-secret-7',
      'q8-secret-value-8',
    ])
      expect(text).not.toContain(secret.slice(4, -2));
    const shown = Object.fromEntries(
      (data.request.headers as { name: string; value: string }[]).map((h) => [h.name, h.value]),
    );
    expect(shown['x-auth-token']).toBe('au…-2');
    expect(shown['x-api-key']).toBe('mo…nv');
    expect(data.request.url).toContain('page_size=5&api_key=qu%E2%80%A6-6&access_token=qu%E2%80%A6-7');
    const har = await call(target, '/__mock/requests/har');
    const harText = JSON.stringify(har);
    expect(harText).not.toContain('secret-value');
    expect(harText).not.toContain('query-key-secret');
    const list = await call(target, '/__mock/requests');
    expect(JSON.stringify(list)).not.toContain('query-token-secret');
  });
});

describe('forced answers and warnings are marked', () => {
  it('names the Prefer directives that made an answer, and only those', async () => {
    const target = createMockService(quiet);
    await call(target, '/v1/files/upload', withKey({ method: 'POST', headers: { Prefer: 'code=503' } }));
    await call(target, '/v1/voice/list', withKey({ headers: { Prefer: 'latency=5' } }));
    await call(target, '/v1/voice/list', withKey());
    await call(target, '/v1/voice/list', { headers: { Prefer: 'code=503' } });
    const entries = (await call(target, '/__mock/requests')).data;
    expect(entries.map((e: { status: number; forced: string[] }) => [e.status, e.forced])).toEqual([
      [503, ['code=503']],
      [200, ['latency=5']],
      [200, []],
      [401, []],
    ]);
  });

  it("shows the mock's X-Mock-Warning on the entry", async () => {
    const target = createMockService(quiet);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([reference.slice()]), 'ref.wav');
    const upload = await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    await call(
      target,
      '/v1/voice/save',
      withKey(json({ voice_id: 'my_voice', ref_audio: upload.data.object_key })),
    );
    await call(target, '/v1/voice/My_Voice', withKey({ method: 'DELETE' }));
    const entries = (await call(target, '/__mock/requests')).data;
    expect(entries.at(-1).warnings).toEqual([expect.stringContaining('voice "my_voice" exists')]);
    expect(entries.at(-2).warnings).toEqual([]);
  });
});

describe('the contract verdict', () => {
  it('flags an answer that breaks the OpenAPI description', () => {
    const request = new Request('http://mock.test/v1/voice/list');
    const broken = jsonAnswer(200, { succeed: true, error_code: 0, error_message: '', data: { list: 'no' } });
    const verdict = answerCheckOf(
      { status: 200, operationId: 'listVoices' },
      keepExchange(request, broken, undefined),
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.problems.join(' ')).toContain('/data/list');
    const undocumented = jsonAnswer(418, {
      succeed: false,
      error_code: 1,
      error_message: 'teapot',
      data: null,
    });
    expect(
      answerCheckOf(
        { status: 418, operationId: 'listVoices' },
        keepExchange(request, undocumented, undefined),
      ).ok,
    ).toBe(false);
  });
});

describe('verification for scripts: GET /__mock/requests/count', () => {
  it('counts by operation, status (exact or class) and key (whole or masked)', async () => {
    const target = createMockService(quiet);
    await call(target, '/v1/voice/list', withKey());
    await call(target, '/v1/voice/list', withKey());
    await call(target, '/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } });
    await call(target, '/v1/voice/list');
    const count = async (query: string) => (await call(target, `/__mock/requests/count${query}`)).data;
    expect(await count('')).toEqual({ count: 4 });
    expect(await count('?operation=listVoices&status=200')).toEqual({ count: 3 });
    expect(await count('?status=4xx')).toEqual({ count: 1 });
    expect(await count(`?key=${key}`)).toEqual({ count: 2 });
    expect(await count(`?key=${encodeURIComponent('mo…nv')}`)).toEqual({ count: 2 });
    expect(await count('?key=mock-key-other-envX')).toEqual({ count: 0 });
  });

  it('refuses an unknown operation, status or parameter with 400/10001 that lists what exists', async () => {
    const target = createMockService(quiet);
    const bad = await call(target, '/__mock/requests/count?operation=listVoice');
    expect([bad.status, bad.error_code]).toEqual([400, 10001]);
    expect(bad.error_message).toContain('uploadFile, saveVoice, listVoices');
    expect((await call(target, '/__mock/requests/count?status=abc')).status).toBe(400);
    const unknown = await call(target, '/__mock/requests/count?operaton=listVoices');
    expect(unknown.error_message).toContain('known: operation, status, key');
  });
});

describe('GET /__mock/requests/har and clearing the log', () => {
  it('exports HAR 1.2 with keys masked and audio summarised', async () => {
    const target = createMockService(quiet);
    await call(target, '/v1/voice/list?page_size=1', withKey());
    await target.fetch(
      new Request('http://mock.test/v1/text-to-speech', withKey(json({ generate_text: 'Hi.' }))),
    );
    const res = await target.fetch(new Request('http://mock.test/__mock/requests/har'));
    expect(res.headers.get('content-disposition')).toContain('.har');
    const text = await res.text();
    expect(text).not.toContain(key);
    const { log } = JSON.parse(text);
    expect(log.version).toBe('1.2');
    expect(log.entries).toHaveLength(2);
    const [list, speech] = log.entries;
    expect(list.request.queryString).toEqual([{ name: 'page_size', value: '1' }]);
    expect(list.response.content.text).toContain('"succeed":true');
    expect(speech.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"generate_text":"Hi."}',
    });
    expect(speech.response.content.text).toBeUndefined();
    expect(speech.response.content.comment).toMatch(/^wav audio, [\d.]+ s, not kept$/);
  });

  it("names an upload form's fields and file in the HAR, without its bytes", async () => {
    const target = createMockService(quiet);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([reference.slice()]), 'ref.wav');
    await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    const har = await (await target.fetch(new Request('http://mock.test/__mock/requests/har'))).json();
    const { postData, bodySize } = har.log.entries[0].request;
    expect(postData.params).toEqual([
      { name: 'scene', value: 'audio' },
      { name: 'file', fileName: 'ref.wav', comment: 'wav container, not kept' },
    ]);
    expect(postData.text).toBe('');
    expect(bodySize).toBe(reference.byteLength);
  });

  it('POST /__mock/requests/clear empties the log and keeps the state', async () => {
    const target = createMockService(quiet);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([reference.slice()]), 'ref.wav');
    await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    const cleared = await call(target, '/__mock/requests/clear', { method: 'POST' });
    expect(cleared.data).toEqual({ cleared: 1 });
    const state = (await call(target, '/__mock/state')).data;
    expect(state.uploads).toHaveLength(1);
    expect(state.requests).toMatchObject({ size: 0, clears: 1, lastSeq: 1 });
    expect((await call(target, '/__mock/requests', { method: 'DELETE' })).status).toBe(200);
    expect((await call(target, '/__mock/requests/clear')).status).toBe(405);
  });
});
