import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

const origin = 'http://app.example.test:5173';
const preflight = (server: MockServer, path: string, method: string, headers = 'x-api-key') =>
  fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': headers,
    },
  });

describe('CORS of the Node mock (on by default)', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      serviceOptions: testServiceOptions,
      config: { pcmHeaders: { sampleRate: 'X-Rate', channels: 'X-Channels', bitDepth: 'X-Bits' } },
    });
  });
  afterAll(() => server.close());

  it.each([
    ['/v1/voice/list', 'GET', 'x-api-key'],
    ['/v1/text-to-speech/stream', 'POST', 'content-type, x-api-key, prefer'],
    ['/v1/voice/abc', 'DELETE', 'x-api-key'],
    ['/__mock/reset', 'POST', 'content-type'],
  ])('answers the preflight of %s %s with 204', async (path, method, headers) => {
    const res = await preflight(server, path, method, headers);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('X-API-Key, Content-Type, Prefer');
    expect(res.headers.get('access-control-max-age')).toBe('7200');
    expect(await res.text()).toBe('');
  });

  it('allows headers the app asks for beyond the usual three', async () => {
    const res = await preflight(server, '/v1/voice/list', 'GET', 'X-API-Key, X-Request-Id');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'X-API-Key, Content-Type, Prefer, X-Request-Id',
    );
  });

  it.each([
    ['a list', '/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } }, 200],
    ['a 401', '/v1/voice/list', {}, 401],
    [
      'a PCM synthesis',
      '/v1/text-to-speech',
      {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
        body: '{"generate_text":"Hi","audio_format":"pcm"}',
      },
      200,
    ],
    ['a plain OPTIONS (no preflight): the 405 envelope', '/v1/voice/list', { method: 'OPTIONS' }, 405],
    ['the control API', '/__mock/clock', {}, 200],
  ] as [string, string, RequestInit, number][])(
    'every answer carries the CORS headers: %s',
    async (_name, path, init, status) => {
      const res = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { Origin: origin, ...(init.headers as Record<string, string>) },
      });
      await res.arrayBuffer();
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe(
        'X-Rate, X-Channels, X-Bits, Allow, X-Mock-Warning, Retry-After',
      );
    },
  );
});

describe('CORS turned off (cors: false, voice-kit mock --no-cors)', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, serviceOptions: testServiceOptions, cors: false });
  });
  afterAll(() => server.close());

  it('a preflight reaches the service (405) and answers carry no CORS headers', async () => {
    const pre = await preflight(server, '/v1/voice/list', 'GET');
    expect(pre.status).toBe(405);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const list = await fetch(`${server.url}/v1/voice/list`, {
      headers: { 'X-API-Key': 'mock-key', Origin: origin },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    expect(list.headers.get('access-control-expose-headers')).toBeNull();
  });
});
