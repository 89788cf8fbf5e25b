import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../../openapi/contract.js';
import { createMockService } from '../core/service.js';
import { type MockServer, startMockServer } from '../node/server.js';
import { envelope, json, nodeTarget, rawGet, type Target, uploadInit } from './helpers.js';

const key = { 'X-API-Key': 'mock-key' };
const wav = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);
const boundary = 'b0undary';
const rawForm = (text: string): RequestInit => ({
  method: 'POST',
  headers: { ...key, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  body: text.replaceAll('\n', '\r\n'),
});
const filePart = (name: string, field = 'file') =>
  `--${boundary}\nContent-Disposition: form-data; name="${field}"; filename="${name}"\n\nRIFFdata\n`;
const scenePart = (scene: string) =>
  `--${boundary}\nContent-Disposition: form-data; name="scene"\n\n${scene}\n`;

/** Malformed or refused requests: each is a 4xx envelope with the catalogue's code, never a 5xx. */
const cases: [name: string, path: string, init: RequestInit, status: number, code: number][] = [
  [
    'malformed JSON',
    '/v1/voice/save',
    { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: '{"voice_id":' },
    400,
    10001,
  ],
  [
    'JSON sent as text/plain',
    '/v1/text-to-speech',
    { method: 'POST', headers: { ...key, 'Content-Type': 'text/plain' }, body: '{}' },
    400,
    10001,
  ],
  [
    'empty JSON body',
    '/v1/text-to-speech',
    { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' } },
    400,
    10001,
  ],
  ['a JSON array', '/v1/voice/save', json([1, 2]), 400, 10001],
  ['text instead of generate_text', '/v1/text-to-speech', json({ text: 'hello' }), 400, 10001],
  [
    'negative speed',
    '/v1/text-to-speech',
    json({ generate_text: 'hi', speed: -1 }),
    400,
    errors.speedNegative.code,
  ],
  ['unknown voice', '/v1/text-to-speech', json({ generate_text: 'hi', voice_id: 'nobody' }), 400, 10001],
  [
    'unsupported format',
    '/v1/text-to-speech/stream',
    json({ generate_text: 'hi', audio_format: 'flac' }),
    400,
    10001,
  ],
  ['unsupported language', '/v1/text-to-speech', json({ generate_text: 'hi', language: 'xx' }), 400, 10001],
  [
    'text over 10,000 characters',
    '/v1/text-to-speech',
    json({ generate_text: 'a'.repeat(10_001) }),
    400,
    10001,
  ],
  [
    'voice id of 31 characters',
    '/v1/voice/save',
    json({ voice_id: 'a'.repeat(31), ref_audio: 'x' }),
    400,
    errors.voiceIdTooLong.code,
  ],
  [
    'voice id with a space inside',
    '/v1/voice/save',
    json({ voice_id: 'my voice', ref_audio: 'x' }),
    400,
    10001,
  ],
  ['voice id of whitespace only', '/v1/voice/save', json({ voice_id: '   ', ref_audio: 'x' }), 400, 10001],
  [
    'reserved voice id',
    '/v1/voice/save',
    json({ voice_id: 'SYSTEM_DEFAULT', ref_audio: 'x' }),
    409,
    errors.voiceIdTaken.code,
  ],
  [
    'unknown object key',
    '/v1/voice/save',
    json({ voice_id: 'fresh', ref_audio: 'obj_nope' }),
    400,
    errors.refAudioNotAccessible.code,
  ],
  [
    'unreachable ref_audio URL',
    '/v1/voice/save',
    json({ voice_id: 'fresh', ref_audio: 'http://127.0.0.1:1/a.wav' }),
    400,
    errors.refAudioNotAccessible.code,
  ],
  [
    'a synthesis body nested 5,000 deep (once dropped the connection after billing)',
    '/v1/text-to-speech/stream',
    {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json' },
      body: `{"generate_text":"hello world","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    },
    400,
    10001,
  ],
  ['page_size 0', '/v1/voice/list?page_size=0', { headers: key }, 400, 10001],
  ['page_size 21', '/v1/voice/list?page_size=21', { headers: key }, 400, 10001],
  ['page_size 2.5', '/v1/voice/list?page_size=2.5', { headers: key }, 400, 10001],
  [
    'unknown cursor',
    '/v1/voice/list?voice_id=never-returned',
    { headers: key },
    400,
    errors.invalidCursor.code,
  ],
  ['upload as JSON', '/v1/files/upload', json({ file: 'x' }), 400, errors.invalidUpload.code],
  [
    'upload without a file',
    '/v1/files/upload',
    rawForm(`${scenePart('audio')}--${boundary}--\n`),
    400,
    10001,
  ],
  ['upload of an empty file', '/v1/files/upload', uploadInit(new Uint8Array(0), 'a.wav'), 400, 10001],
  [
    'upload of two files',
    '/v1/files/upload',
    rawForm(`${scenePart('audio')}${filePart('a.wav')}${filePart('b.wav')}--${boundary}--\n`),
    400,
    10001,
  ],
  ['upload without scene', '/v1/files/upload', rawForm(`${filePart('a.wav')}--${boundary}--\n`), 400, 10001],
  ['upload with scene video', '/v1/files/upload', uploadInit(wav, 'a.wav', 'mock-key', 'video'), 400, 10001],
  [
    'truncated multipart',
    '/v1/files/upload',
    rawForm(
      `${scenePart('audio')}--${boundary}\nContent-Disposition: form-data; name="file"; filename="a.wav"\n\nRIFF`,
    ),
    400,
    10001,
  ],
  [
    'upload without extension',
    '/v1/files/upload',
    uploadInit(wav, 'recording'),
    400,
    errors.unsupportedExtension.code,
  ],
  ['upload of .OPUS', '/v1/files/upload', uploadInit(wav, 'a.OPUS'), 400, errors.unsupportedExtension.code],
  ['unknown path', '/v1/voices', { headers: key }, 404, 10001],
  ['wrong method', '/v1/text-to-speech', { headers: key }, 405, 10001],
  [
    'expired or forged voice_url',
    '/__mock/voice-audio/abc?expires=1&signature=00',
    {},
    403,
    errors.signedUrlInvalid.code,
  ],
  ['unknown control path', '/__mock/nothing', {}, 404, 10001],
  ['clock advance without seconds', '/__mock/clock/advance', json({}), 400, 10001],
];

describe('robustness over real HTTP', () => {
  let target: Target;
  beforeAll(async () => {
    target = await nodeTarget({ config: { reference: { fetchTimeoutMs: 2000 } } });
  });
  afterAll(() => target.close());

  const table = cases.map(([name, path, init, status, code]) => [name, status, code, path, init] as const);
  it.each(table)('%s → %i/%i', async (_name, status, code, path, init) => {
    const res = await target.request(path, init);
    const body = await envelope(res);
    expect([res.status, body.error_code]).toEqual([status, code]);
    expect(body.error_message.length).toBeGreaterThan(0);
    expect(target.service.responseViolations).toEqual([]);
  });

  it('accepts extensions case-insensitively (.WAV, .Mp3, .m4a, .webm, .ogg)', async () => {
    for (const name of ['a.WAV', 'b.Mp3', 'c.m4a', 'd.webm', 'e.ogg']) {
      expect((await target.request('/v1/files/upload', uploadInit(wav, name))).status).toBe(200);
    }
  });
});

describe('the Host header over real HTTP', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  // fetch may not set Host; node:http may. A Host that is not host[:port] must not become the path.
  const withHost = (host: string) => rawGet(`${server.url}/v1/voice/list`, { headers: { ...key, host } });

  it.each(['evil.test/x?y', 'a b', 'x:99999', 'user@host', '[::1'])(
    'Host %j → 400/10001 envelope',
    async (host) => {
      const { status, body } = await withHost(host);
      expect([status, JSON.parse(body).error_code]).toEqual([400, errors.invalidRequest.code]);
    },
  );

  it('answers a well-formed Host in any case, with its port', async () => {
    const { status, body } = await withHost('MOCK.TEST:80');
    expect([status, JSON.parse(body).succeed]).toEqual([200, true]);
  });
});

describe('a mock bug over real HTTP', () => {
  // The list is answered in the request's own turn (no promise): an operation that throws there must
  // still become the 500 envelope, not an exception out of the server's request handler.
  let broken = false;
  let server: MockServer;
  beforeAll(async () => {
    const service = createMockService({
      clock: {
        now: () => {
          if (!broken) return Date.now();
          broken = false;
          throw new Error('the clock broke');
        },
        advance: () => {},
      },
      logger: { error: () => {} },
    });
    server = await startMockServer({ port: 0, service });
  });
  afterAll(() => server.close());

  it('answers 500/10000 in the envelope, and the next request as usual', async () => {
    broken = true;
    const failed = await fetch(`${server.url}/v1/voice/list`, { headers: key });
    const body = await envelope(failed);
    expect([failed.status, body.error_code, body.succeed]).toEqual([500, 10000, false]);
    expect(body.error_message).toContain('the clock broke');
    expect((await fetch(`${server.url}/v1/voice/list`, { headers: key })).status).toBe(200);
  });
});
