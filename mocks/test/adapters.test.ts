import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errors, pcmHeaders } from '../../openapi/contract.js';
import {
  createVoice,
  envelope,
  json,
  referenceWav,
  sameBytes,
  type Target,
  targetFactories,
  uploadInit,
  withKey,
} from './helpers.js';

type Scenario = [name: string, run: (target: Target) => Promise<void>];

const tts = (
  body: Record<string, unknown>,
  path = '/v1/text-to-speech',
  headers: Record<string, string> = {},
) => [path, json(body, headers)] as const;

/** One table of behaviours, each self-contained (the state is reset before each), run through every adapter. */
const scenarios: Scenario[] = [
  [
    'upload stores the file and answers an opaque object key, no URL',
    async (t) => {
      const res = await t.request('/v1/files/upload', uploadInit(referenceWav(), 'My Ref.WAV'));
      expect(res.status).toBe(200);
      const body = await envelope(res, 'uploadFile');
      expect(body.data).toEqual({
        object_key: expect.stringMatching(/^obj_[0-9a-f]{40}$/),
        file_name: 'My Ref.WAV',
        size: referenceWav().byteLength,
        scene: 'audio',
      });
    },
  ],
  [
    'upload keeps a non-ASCII file name: raw UTF-8 filename= (curl, browsers, undici) and RFC 5987 filename*=',
    async (t) => {
      const raw = await t.request('/v1/files/upload', uploadInit(referenceWav(), 'grüße 音声.wav'));
      expect((await envelope(raw, 'uploadFile')).data.file_name).toBe('grüße 音声.wav');
      const boundary = 'voicekit5987';
      const head = [
        `--${boundary}\r\nContent-Disposition: form-data; name="scene"\r\n\r\naudio\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''gr%C3%BC%C3%9Fe%20%E9%9F%B3%E5%A3%B0.wav\r\n`,
        'Content-Type: audio/wav\r\n\r\n',
      ].join('');
      const body = new Blob([head, referenceWav().slice(), `\r\n--${boundary}--\r\n`]);
      const encoded = await t.request('/v1/files/upload', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect((await envelope(encoded, 'uploadFile')).data.file_name).toBe('grüße 音声.wav');
    },
  ],
  [
    'upload refuses .flac with 20012 and a missing key with 401',
    async (t) => {
      const flac = await envelope(
        await t.request('/v1/files/upload', uploadInit(referenceWav(), 'a.flac')),
        'uploadFile',
      );
      expect(flac.error_code).toBe(errors.unsupportedExtension.code);
      const anonymous = await t.request(
        '/v1/files/upload',
        withKey(undefined, { method: 'POST', body: new FormData() }),
      );
      expect(anonymous.status).toBe(401);
      expect((await envelope(anonymous, 'uploadFile')).error_code).toBe(errors.missingApiKey.code);
    },
  ],
  [
    'save creates a voice (normalized id), a second save of the id is 409/10018',
    async (t) => {
      const key = await createVoice(t, '  Narrator ');
      const again = await t.request('/v1/voice/save', json({ voice_id: 'narrator', ref_audio: key }));
      expect(again.status).toBe(errors.voiceIdTaken.status);
      expect((await envelope(again, 'saveVoice')).error_code).toBe(errors.voiceIdTaken.code);
      const list = await envelope(await t.request('/v1/voice/list', withKey('mock-key')), 'listVoices');
      expect(list.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['narrator']);
      expect(list.data.remainingFreeCloneCount).toBe(2);
    },
  ],
  [
    'an object key is scoped to its project and environment; Voice Cloning off is 403',
    async (t) => {
      const uploaded = await envelope(
        await t.request('/v1/files/upload', uploadInit(referenceWav(), 'r.wav')),
      );
      const ref = uploaded.data.object_key;
      for (const key of ['mock-key-other-project', 'mock-key-other-env', 'mock-key-other-org']) {
        const res = await t.request(
          '/v1/voice/save',
          json({ voice_id: 'stolen', ref_audio: ref }, { 'X-API-Key': key }),
        );
        expect([res.status, (await envelope(res, 'saveVoice')).error_code]).toEqual([
          400,
          errors.refAudioNotAccessible.code,
        ]);
      }
      const noClone = await t.request(
        '/v1/voice/save',
        json({ voice_id: 'x', ref_audio: ref }, { 'X-API-Key': 'mock-key-no-clone' }),
      );
      expect([noClone.status, (await envelope(noClone, 'saveVoice')).error_code]).toEqual([
        403,
        errors.voiceCloningDisabled.code,
      ]);
    },
  ],
  [
    'list pages oldest first with a cursor; voice_url serves the reference audio',
    async (t) => {
      for (const id of ['alpha', 'beta', 'gamma']) await createVoice(t, id);
      const first = await envelope(
        await t.request('/v1/voice/list?page_size=2', withKey('mock-key')),
        'listVoices',
      );
      expect(first.data).toMatchObject({
        has_more: true,
        total: 2,
        next_voice_id: 'gamma',
        remainingFreeCloneCount: 0,
      });
      const second = await envelope(
        await t.request('/v1/voice/list?page_size=2&voice_id=gamma', withKey('mock-key')),
        'listVoices',
      );
      expect(second.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['gamma']);
      expect(second.data).not.toHaveProperty('next_voice_id');
      const url = new URL(first.data.list[0].voice_url);
      const audio = await t.request(`${url.pathname}${url.search}`);
      expect(audio.headers.get('content-type')).toBe('audio/wav');
      expect(sameBytes(new Uint8Array(await audio.arrayBuffer()), referenceWav())).toBe(true);
      const tampered = await t.request(
        `${url.pathname}${url.search.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`)}`,
      );
      expect([tampered.status, (await envelope(tampered)).error_code]).toEqual([
        403,
        errors.signedUrlInvalid.code,
      ]);
      const otherOrg = await envelope(
        await t.request('/v1/voice/list', withKey('mock-key-other-org')),
        'listVoices',
      );
      expect(otherOrg.data.list).toEqual([]);
    },
  ],
  [
    'complete PCM synthesis carries the three headers and Content-Length',
    async (t) => {
      const res = await t.request(...tts({ generate_text: 'Hello there.', audio_format: 'pcm' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/pcm');
      expect(res.headers.get(pcmHeaders.sampleRate)).toBe('24000');
      expect(res.headers.get(pcmHeaders.channels)).toBe('1');
      expect(res.headers.get(pcmHeaders.bitDepth)).toBe('16');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.byteLength).toBeGreaterThan(0);
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
    },
  ],
  [
    'the concatenated stream equals the complete answer, with a custom voice',
    async (t) => {
      await createVoice(t, 'storyteller');
      const body = {
        generate_text: 'Once upon a time [laugh] there was a mock.',
        voice_id: 'storyteller',
        speed: 1.2,
      };
      const complete = new Uint8Array(await (await t.request(...tts(body))).arrayBuffer());
      const streamed = await t.request(...tts(body, '/v1/text-to-speech/stream'));
      expect(streamed.headers.get('content-type')).toBe('audio/wav');
      expect(streamed.headers.get('content-length')).toBeNull();
      const joined = new Uint8Array(await streamed.arrayBuffer());
      expect(joined.byteLength).toBeGreaterThan(44);
      expect(sameBytes(joined, complete)).toBe(true);
    },
  ],
  [
    'delete is idempotent, removes the voice from list and synthesis, and never removes a system voice',
    async (t) => {
      await createVoice(t, 'gone');
      for (let i = 0; i < 2; i++) {
        const res = await t.request('/v1/voice/gone', withKey('mock-key', { method: 'DELETE' }));
        expect((await envelope(res, 'deleteVoice')).data).toBeNull();
      }
      const synth = await t.request(...tts({ generate_text: 'hi', voice_id: 'gone' }));
      expect([synth.status, (await envelope(synth, 'synthesizeSpeech')).error_code]).toEqual([
        400,
        errors.unknownVoice.code,
      ]);
      const system = await t.request('/v1/voice/system_default', withKey('mock-key', { method: 'DELETE' }));
      expect([system.status, (await envelope(system, 'deleteVoice')).error_code]).toEqual([
        403,
        errors.systemVoiceNotDeletable.code,
      ]);
      expect(
        (await t.request(...tts({ generate_text: 'still here', voice_id: 'system_default' }))).status,
      ).toBe(200);
    },
  ],
  [
    'Prefer: code=NNN answers the documented error; an undocumented code is a 400 naming the available ones',
    async (t) => {
      const busy = await t.request(
        '/v1/files/upload',
        withKey('mock-key', { method: 'POST', headers: { Prefer: 'code=503' }, body: new FormData() }),
      );
      expect([busy.status, (await envelope(busy, 'uploadFile')).error_code]).toEqual([
        503,
        errors.storageUnavailable.code,
      ]);
      const teapot = await t.request('/v1/voice/list', {
        headers: { Prefer: 'code=418', 'X-API-Key': 'mock-key' },
      });
      const refused = await envelope(teapot, 'listVoices');
      expect([teapot.status, refused.error_message]).toEqual([
        400,
        expect.stringContaining('available: 200, 400'),
      ]);
    },
  ],
  [
    'snapshot → reset → restore of the whole answer brings the voices back with their bytes',
    async (t) => {
      await createVoice(t, 'kept');
      const snapshot = await (await t.request('/__mock/snapshot')).text();
      expect((await t.request('/__mock/reset', { method: 'POST' })).status).toBe(200);
      const restored = await t.request('/__mock/restore', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: snapshot, // the envelope as GET answered it, not only its data
      });
      expect([restored.status, (await envelope(restored)).succeed]).toEqual([200, true]);
      const list = await envelope(await t.request('/v1/voice/list', withKey('mock-key')), 'listVoices');
      expect(list.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['kept']);
      const url = new URL(list.data.list[0].voice_url);
      const audio = await t.request(`${url.pathname}${url.search}`);
      expect(audio.status).toBe(200);
      expect(sameBytes(new Uint8Array(await audio.arrayBuffer()), referenceWav())).toBe(true);
      const upload = JSON.parse(snapshot).data.uploads.records[0].objectKey;
      const again = await t.request('/v1/voice/save', json({ voice_id: 'again', ref_audio: upload }));
      expect([again.status, (await envelope(again, 'saveVoice')).error_code]).toEqual([200, 0]);
    },
  ],
  [
    'delete with the un-normalized id succeeds, deletes nothing, and says so in X-Mock-Warning',
    async (t) => {
      await createVoice(t, 'My_Voice');
      const del = (id: string) =>
        t.request(`/v1/voice/${encodeURIComponent(id)}`, withKey('mock-key', { method: 'DELETE' }));
      const warned = await del('My_Voice');
      expect([warned.status, (await envelope(warned, 'deleteVoice')).succeed]).toEqual([200, true]);
      expect(warned.headers.get('x-mock-warning')).toBe(
        'no voice "My_Voice"; voice "my_voice" exists - ids are used exactly as returned (spec section 4.4)',
      );
      const padded = await del('MY_VOICE\u00a0');
      expect(padded.headers.get('x-mock-warning')).toBe(
        'no voice "MY_VOICE\\u00a0"; voice "my_voice" exists - ids are used exactly as returned (spec section 4.4)',
      );
      const list = await envelope(await t.request('/v1/voice/list', withKey('mock-key')), 'listVoices');
      expect(list.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['my_voice']);
      const exact = await del('my_voice');
      expect([exact.status, exact.headers.get('x-mock-warning')]).toEqual([200, null]);
      const again = await del('My_Voice');
      expect([again.status, again.headers.get('x-mock-warning')]).toEqual([200, null]);
    },
  ],
  [
    'every endpoint answers 401/10003 without a key',
    async (t) => {
      const calls: [string, RequestInit][] = [
        ['/v1/voice/save', { method: 'POST' }],
        ['/v1/voice/list', {}],
        ['/v1/voice/abc', { method: 'DELETE' }],
        ['/v1/text-to-speech', { method: 'POST' }],
        ['/v1/text-to-speech/stream', { method: 'POST' }],
      ];
      for (const [path, init] of calls) {
        const res = await t.request(path, init);
        expect([path, res.status, (await envelope(res)).error_code]).toEqual([
          path,
          401,
          errors.missingApiKey.code,
        ]);
      }
    },
  ],
];

describe.each(Object.keys(targetFactories) as (keyof typeof targetFactories)[])(
  'through the %s adapter',
  (name) => {
    let target: Target;
    beforeAll(async () => {
      target = await targetFactories[name]();
    });
    afterAll(() => target.close());
    beforeEach(async () => {
      expect((await target.request('/__mock/reset', { method: 'POST' })).status).toBe(200);
    });

    it.each(scenarios)('%s', async (_name, run) => {
      await run(target);
      expect(target.service.responseViolations).toEqual([]);
    });
  },
);
