import { describe, expect, it } from 'vitest';
import { errors } from '../../openapi/contract.js';
import { createMockService } from './service.js';

const textBody = JSON.stringify({ generate_text: 'Late, but here.', audio_format: 'pcm' });

/** The service, with every non-zero sleep recorded (a zero one is the yield between audio chunks). */
function observed() {
  const waits: number[] = [];
  const service = createMockService({
    validateResponses: true,
    logger: { error: () => {} },
    sleep: async (ms) => {
      if (ms > 0) waits.push(ms);
    },
  });
  const call = (method: string, path: string, headers: Record<string, string>, body?: BodyInit) =>
    service.fetch(
      new Request(`http://mock.test${path}`, {
        method,
        headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
      }),
    );
  return { service, waits, call };
}

const noKey = {};
const key = { 'X-API-Key': 'mock-key' };
const unknownKey = { 'X-API-Key': 'not-a-key' };

describe('the API key is checked before Prefer is honoured', () => {
  it.each([
    ['no key, code=500 on list', 'GET', '/v1/voice/list', noKey, 'code=500', 401, 10003],
    [
      'no key, code=503 on list (not documented there)',
      'GET',
      '/v1/voice/list',
      noKey,
      'code=503',
      401,
      10003,
    ],
    ['no key, code=503 on upload', 'POST', '/v1/files/upload', noKey, 'code=503', 401, 10003],
    ['unknown key, code=500 on synthesis', 'POST', '/v1/text-to-speech', unknownKey, 'code=500', 401, 10003],
    ['no key, fault=reset', 'GET', '/v1/voice/list', noKey, 'fault=reset', 401, 10003],
    ['no key, a malformed Prefer', 'GET', '/v1/voice/list', noKey, 'code=abc', 401, 10003],
    ['no key, code=401 (asks for exactly that)', 'GET', '/v1/voice/list', noKey, 'code=401', 401, 10003],
    ['a key, code=401', 'DELETE', '/v1/voice/abc', key, 'code=401', 401, 10003],
    ['a key, code=500', 'GET', '/v1/voice/list', key, 'code=500', 500, 10000],
    ['a key, code=503 on upload', 'POST', '/v1/files/upload', key, 'code=503', 503, 20002],
    ['a key, a malformed Prefer', 'GET', '/v1/voice/list', key, 'code=abc', 400, 10001],
  ] as const)('%s → %i/%i', async (_name, method, path, headers, prefer, status, code) => {
    const { call } = observed();
    const res = await call(method, path, { ...headers, Prefer: prefer });
    const body = (await res.json()) as { error_code: number };
    expect([res.status, body.error_code]).toEqual([status, code]);
  });

  it('the 401 of a missing key is the catalogue one, whatever the Prefer', async () => {
    const { call } = observed();
    const res = await call('GET', '/v1/voice/list', { Prefer: 'code=500' });
    expect(((await res.json()) as { error_message: string }).error_message).toBe(
      errors.missingApiKey.message,
    );
  });
});

describe('Prefer: code=429 on upload', () => {
  const upload = (service: ReturnType<typeof observed>['service'], prefer?: string) => {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array([82, 73, 70, 70])]), 'a.wav');
    const headers = prefer === undefined ? key : { ...key, Prefer: prefer };
    return service.fetch(
      new Request('http://mock.test/v1/files/upload', { method: 'POST', headers, body: form }),
    );
  };

  it('carries Retry-After as a real refusal does: 1 s with nothing counted, then what the window says', async () => {
    const { service } = observed();
    const asked = await upload(service, 'code=429');
    const body = (await asked.json()) as { error_code: number };
    expect([asked.status, body.error_code, asked.headers.get('retry-after')]).toEqual([
      429,
      errors.uploadRateLimited.code,
      '1',
    ]);
    expect((await upload(service)).status).toBe(200);
    service.clock.advance(60_000);
    const later = await upload(service, 'code=429');
    expect(later.headers.get('retry-after')).toBe(String(3600 - 60));
  });
});

describe('Prefer: latency=MS delays every operation', () => {
  it.each([
    ['complete synthesis', 'POST', '/v1/text-to-speech', key, textBody, [250]],
    ['list', 'GET', '/v1/voice/list', key, undefined, [250]],
    ['delete', 'DELETE', '/v1/voice/gone', key, undefined, [250]],
    [
      'an error asked for with code=',
      'GET',
      '/v1/voice/list',
      { ...key, Prefer: 'code=500' },
      undefined,
      [250],
    ],
    ['a refused request (empty text)', 'POST', '/v1/text-to-speech', key, '{"generate_text":""}', [250]],
    ['a stream: before its first chunk, once', 'POST', '/v1/text-to-speech/stream', key, textBody, [250]],
    ['no key: the 401 comes at once', 'GET', '/v1/voice/list', noKey, undefined, []],
  ] as const)('%s waits %j', async (_name, method, path, headers, body, expected) => {
    const { call, waits } = observed();
    const prefer = 'Prefer' in headers ? `${headers.Prefer}, latency=250` : 'latency=250';
    const res = await call(method, path, { ...headers, Prefer: prefer }, body);
    await res.arrayBuffer();
    expect(waits).toEqual(expected);
  });
});
