import { describe, expect, it } from 'vitest';
import { synthesizeToBytes, systemVoices } from '../../../audio/index.js';
import { createMockService, type MockService } from '../service.js';
import { snapshotChange } from '../state/persisted-rows.js';
import { memoryStore, type StateRow } from '../state/state-store.js';
import { controlIndex } from './control-api.js';

const service = createMockService({ logger: { error: () => {} } });
const control = (method: string, path: string) =>
  service.fetch(new Request(`http://mock.test${path}`, { method }));

describe('GET /__mock/ (the control API index)', () => {
  it('answers the index instead of a 404 pointing at itself', async () => {
    const res = await control('GET', '/__mock/');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { succeed: boolean; data: { operations: typeof controlIndex } };
    expect(body.succeed).toBe(true);
    expect(body.data.operations).toEqual(controlIndex);
    expect(body.data.operations.map((op) => `${op.method} ${op.path}`)).toContain('POST /__mock/restore');
  });

  it.each(controlIndex.filter((op) => !op.path.includes('<')))(
    'lists $method $path, which exists',
    async ({ method, path }) => {
      const res = await control(method, path);
      expect([404, 405]).not.toContain(res.status);
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'reset/constructor'])(
    '/__mock/%s, named like an Object.prototype member, is no control operation (404)',
    async (name) => {
      for (const method of ['GET', 'POST']) {
        const res = await control(method, `/__mock/${name}`);
        expect([method, res.status]).toEqual([method, 404]);
      }
      // A real route's methods are own names too: `constructor` is no method of /__mock/reset.
      expect((await control('CONSTRUCTOR', '/__mock/reset')).status).toBe(405);
    },
  );

  it('an unknown control path still says where to look', async () => {
    const res = await control('GET', '/__mock/nothing');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error_message: string }).error_message).toContain('see /__mock/');
  });
});

describe('the views the dashboard reads (a script can read them too)', () => {
  const reference = synthesizeToBytes({
    text: 'This is my reference voice, recorded for cloning. It is long enough.',
    voice: systemVoices[0] as (typeof systemVoices)[0],
    format: 'wav',
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answer data by path
  type Body = { status: number; error_code: number; error_message: string; data: any };
  const call = async (target: MockService, path: string, init: RequestInit = {}): Promise<Body> => {
    const res = await target.fetch(new Request(`http://mock.test${path}`, init));
    return { status: res.status, ...((await res.json()) as Omit<Body, 'status'>) };
  };
  const withKey = (init: RequestInit = {}, key = 'mock-key-other-env'): RequestInit => ({
    ...init,
    headers: { 'X-API-Key': key, ...init.headers },
  });
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  async function uploaded(target: MockService, bytes: Uint8Array = reference): Promise<string> {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([bytes.slice()]), 'ref.wav');
    const answer = await call(target, '/v1/files/upload', withKey({ method: 'POST', body: form }));
    return answer.data.object_key;
  }

  it('GET /__mock/state shows a voice with its upload, the upload with its analysis, quotas and the ledger', async () => {
    const target = createMockService({ logger: { error: () => {} } });
    const objectKey = await uploaded(target);
    const saved = await call(
      target,
      '/v1/voice/save',
      withKey(json({ voice_id: 'mine', ref_audio: objectKey })),
    );
    expect(saved.status).toBe(200);
    const { data } = await call(target, '/__mock/state');
    expect(data.voices).toEqual([
      expect.objectContaining({
        organization: 'org-1',
        environment: 'staging',
        voiceId: 'mine',
        sourceUpload: objectKey,
        source: 'upload',
        mediaType: 'audio/wav',
        voiceUrl: expect.stringMatching(
          /^http:\/\/mock\.test\/__mock\/voice-audio\/\w+\?expires=\d+&signature=/,
        ),
      }),
    ]);
    expect(data.uploads).toEqual([
      expect.objectContaining({
        objectKey,
        fileName: 'ref.wav',
        size: reference.byteLength,
        environment: 'staging',
        analysis: expect.objectContaining({ verdict: 'accepted', container: 'wav', reason: null }),
      }),
    ]);
    expect(data.uploads[0].analysis.durationSeconds).toBeGreaterThan(1);
    expect(data.quotas).toContainEqual({ user: 'user-1', uploadsLeft: 29, uploadsPerHour: 30 });
    expect(data.accounts).toContainEqual(
      expect.objectContaining({ account: 'account-1', freeCloneUsesLeft: 2, freeCloneUsesPerAccount: 3 }),
    );
    expect(data.keys.map((k: { key: string }) => k.key)).not.toContain('mock-key');
    expect(data.requests).toEqual({ lastSeq: 2, clears: 0, size: 2, capacity: 200 });
    // The voice_url it gives plays the reference.
    const audio = await target.fetch(new Request(data.voices[0].voiceUrl));
    expect([audio.status, (await audio.arrayBuffer()).byteLength]).toEqual([200, reference.byteLength]);
  });

  it('POST /__mock/uploads/analyze judges an upload no voice was made from, and the state view keeps the verdict', async () => {
    const target = createMockService({ logger: { error: () => {} } });
    const objectKey = await uploaded(target, reference.slice(0, 44 + 24_000));
    expect((await call(target, '/__mock/state')).data.uploads[0].analysis).toBeNull();
    const analysed = await call(target, '/__mock/uploads/analyze', json({ objectKey }));
    expect(analysed.status).toBe(200);
    expect(analysed.data).toMatchObject({ verdict: 'too-short', container: 'wav' });
    expect(analysed.data.reason).toEqual(expect.any(String));
    expect((await call(target, '/__mock/state')).data.uploads[0].analysis).toEqual(analysed.data);
    const unknown = await call(target, '/__mock/uploads/analyze', json({ objectKey: 'obj_nope' }));
    expect([unknown.status, unknown.error_code]).toEqual([400, 10001]);
  });

  it('GET /__mock/requests numbers requests, masks keys, times them, and names the code of a refusal', async () => {
    const target = createMockService({ logger: { error: () => {} } });
    await call(target, '/v1/voice/list', withKey());
    await call(target, '/v1/voice/list');
    const { data } = await call(target, '/__mock/requests');
    expect(data).toEqual([
      expect.objectContaining({ seq: 1, key: 'mo…nv', status: 200, errorCode: null, errorMessage: null }),
      expect.objectContaining({ seq: 2, key: null, status: 401, errorCode: 10003 }),
    ]);
    expect(data[1].errorMessage).toContain('X-API-Key');
    expect(data[0].durationMs).toEqual(expect.any(Number));
    expect((await call(target, '/__mock/requests?after=1')).data.map((e: { seq: number }) => e.seq)).toEqual([
      2,
    ]);
    const bad = await call(target, '/__mock/requests?after=-1');
    expect([bad.status, bad.error_code]).toEqual([400, 10001]);
  });

  it('POST /__mock/speak synthesizes with a voice as a key of its space, logged like any request', async () => {
    const target = createMockService({ logger: { error: () => {} } });
    const objectKey = await uploaded(target);
    await call(target, '/v1/voice/save', withKey(json({ voice_id: 'mine', ref_audio: objectKey })));
    const spoken = await target.fetch(
      new Request(
        'http://mock.test/__mock/speak',
        json({ organization: 'org-1', environment: 'staging', voiceId: 'mine', text: 'Hello there.' }),
      ),
    );
    expect([spoken.status, spoken.headers.get('Content-Type')]).toEqual([200, 'audio/wav']);
    expect((await spoken.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    const log = (await call(target, '/__mock/requests')).data;
    expect(log.at(-1)).toMatchObject({ path: '/v1/text-to-speech', status: 200, key: 'mo…nv' });
    // Another space does not have the voice: the public API's own refusal comes back.
    const elsewhere = await call(
      target,
      '/__mock/speak',
      json({ organization: 'org-1', environment: 'production', voiceId: 'mine', text: 'Hello.' }),
    );
    expect(elsewhere.status).toBe(400);
    const nobody = await call(
      target,
      '/__mock/speak',
      json({ organization: 'org-9', environment: 'staging', voiceId: 'mine', text: 'Hello.' }),
    );
    expect([nobody.status, nobody.error_code]).toEqual([400, 10001]);
    expect(nobody.error_message).toContain('no configured key of org-9/staging');
  });

  it('POST /__mock/requests/replay sends a logged synthesis again: the same audio, as a new request', async () => {
    const target = createMockService({ logger: { error: () => {} } });
    const first = await target.fetch(
      new Request('http://mock.test/v1/text-to-speech/stream', {
        ...withKey(json({ generate_text: 'Once more, please.' })),
      }),
    );
    const bytes = new Uint8Array(await first.arrayBuffer());
    const [logged] = (await call(target, '/__mock/requests')).data;
    expect(logged).toMatchObject({
      seq: 1,
      body: '{"generate_text":"Once more, please."}',
      key: 'mo…nv',
    });
    const again = await target.fetch(
      new Request('http://mock.test/__mock/requests/replay', json({ seq: 1 })),
    );
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    const log = (await call(target, '/__mock/requests')).data;
    expect(log.map((e: { seq: number; path: string }) => `${e.seq} ${e.path}`)).toEqual([
      '1 /v1/text-to-speech/stream',
      '2 /v1/text-to-speech/stream',
    ]);
    const listed = await call(target, '/__mock/requests/replay', json({ seq: 99 }));
    expect([listed.status, listed.error_code]).toEqual([400, 10001]);
  });
});

describe('voice audio cannot be a page (red-team D4)', () => {
  const quiet = { logger: { error: () => {} } };
  const listed = async (target: MockService) => {
    const res = await target.fetch(
      new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } }),
    );
    return ((await res.json()) as { data: { list: { voice_url: string }[] } }).data.list;
  };

  it('is served with nosniff, a sandbox CSP, inline, and an audio media type', async () => {
    const target = createMockService(quiet);
    await target.populate({ voices: 1, seed: 1 });
    const [voice] = await listed(target);
    const res = await target.fetch(new Request(voice?.voice_url as string));
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'content-type': 'audio/wav',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
      'content-disposition': 'inline',
    });
  });

  it.each(['text/html', 'image/svg+xml', 'application/octet-stream', 'audio/wav; x=1'])(
    'a snapshot whose voice is %s is refused by restore, naming the field, and the state stays',
    async (type) => {
      const target = createMockService(quiet);
      await target.populate({ voices: 1, seed: 1 });
      const snapshot = target.snapshot();
      const voices = snapshot.voices.voices.map((v) => ({ ...v, audioMediaType: type }));
      const bad = { ...snapshot, voices: { ...snapshot.voices, voices } };
      const res = await target.fetch(
        new Request('http://mock.test/__mock/restore', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(bad),
        }),
      );
      const body = (await res.json()) as { error_code: number; error_message: string };
      expect([res.status, body.error_code]).toEqual([400, 10001]);
      expect(body.error_message).toContain(
        'voices.voices[0].audioMediaType: must be equal to one of the allowed values',
      );
      expect(() => target.restore(bad)).toThrow(/audioMediaType/);
      expect(target.state.voices.snapshot().voices[0]?.audioMediaType).toBe('audio/wav');
    },
  );

  it('a state store whose rows hold a non-audio voice is refused when loaded', async () => {
    const target = createMockService(quiet);
    await target.populate({ voices: 1, seed: 1 });
    const snapshot = target.snapshot();
    const voices = snapshot.voices.voices.map((v) => ({ ...v, audioMediaType: 'text/html' }));
    const rows = snapshotChange({ ...snapshot, voices: { ...snapshot.voices, voices } }, 0).put ?? [];
    expect(rows.length).toBeGreaterThan(0);
    expect(() =>
      createMockService({
        ...quiet,
        persistence: { store: memoryStore(), rows: rows as readonly StateRow[] },
      }),
    ).toThrow(/audioMediaType/);
  });
});
