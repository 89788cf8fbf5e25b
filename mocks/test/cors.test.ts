import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../node/server.js';
import { rawGet, testServiceOptions } from './helpers.js';

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
    ['/__mock/voice-audio/abc', 'GET', 'x-api-key'],
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
    ['a voice_url (an app plays it)', '/__mock/voice-audio/abc?expires=1&signature=00', {}, 403],
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

describe('the control API answers only the mock itself', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, serviceOptions: testServiceOptions });
  });
  afterAll(() => server.close());

  it('refuses the preflight of a page of another origin, granting no CORS', async () => {
    const res = await preflight(server, '/__mock/reset', 'POST', 'content-type');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await res.json()) as { error_code: number }).error_code).toBe(10003);
  });

  it.each([
    ['GET', '/__mock/snapshot'],
    ['GET', '/__mock/requests'],
    ['POST', '/__mock/reset'],
  ])('refuses %s %s from a page of another origin with 403, and changes nothing', async (method, path) => {
    await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
    const logged = server.service.state.requests.list().length;
    const res = await fetch(`${server.url}${path}`, { method, headers: { Origin: origin } });
    const body = (await res.json()) as { error_code: number; succeed: boolean; error_message: string };
    expect(res.status).toBe(403);
    expect(body).toMatchObject({ error_code: 10003, succeed: false });
    expect(body.error_message).toContain(origin);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(server.service.state.requests.list().length).toBe(logged);
  });

  it("answers the mock's own pages (same origin) and clients that send no Origin, without CORS headers", async () => {
    const own = await fetch(`${server.url}/__mock/clock`, { headers: { Origin: server.url } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${server.url}/__mock/clock`)).status).toBe(200);
  });

  it('refuses a Host that is a DNS name other than localhost (DNS rebinding), and answers localhost', async () => {
    const port = new URL(server.url).port;
    const rebound = await rawGet(`${server.url}/__mock/snapshot`, {
      headers: { Host: `attacker.example:${port}` },
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error_message).toContain('attacker.example');
    const local = await rawGet(`${server.url}/__mock/clock`, { headers: { Host: `localhost:${port}` } });
    expect(local.status).toBe(200);
    // The API itself keeps answering any Host: browser apps reach it by name.
    const api = await rawGet(`${server.url}/v1/voice/list`, {
      headers: { Host: `attacker.example:${port}`, 'X-API-Key': 'mock-key' },
    });
    expect(api.status).toBe(200);
  });
});

describe('a control token that guards nothing is refused', () => {
  it.each([
    ['', /controlToken is empty/],
    ['short-15-chars!', /controlToken is 15 characters; a control token needs at least 16/],
    ['has a space in it ok', /controlToken may hold only visible ASCII/],
  ])(
    'startMockServer({ controlToken: %j }) throws a ConfigError naming it, before listening',
    async (token, message) => {
      await expect(
        startMockServer({ port: 0, serviceOptions: testServiceOptions, controlToken: token }),
      ).rejects.toThrow(message);
    },
  );
});

describe('the control token', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      serviceOptions: testServiceOptions,
      controlToken: 't0ken-long-enough-16',
    });
  });
  afterAll(() => server.close());

  it('is asked for with 401 when missing or wrong, and lets the request through when right', async () => {
    expect(server.controlToken).toBe('t0ken-long-enough-16');
    const missing = await fetch(`${server.url}/__mock/clock`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error_message: string }).error_message).toContain(
      'X-Mock-Control-Token',
    );
    expect(
      (await fetch(`${server.url}/__mock/clock`, { headers: { 'X-Mock-Control-Token': 'nope' } })).status,
    ).toBe(401);
    expect(
      (
        await fetch(`${server.url}/__mock/clock`, {
          headers: { 'X-Mock-Control-Token': 't0ken-long-enough-16' },
        })
      ).status,
    ).toBe(200);
    // The API and the voice_url audio need no token.
    expect(
      (await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } })).status,
    ).toBe(200);
  });

  it.each([
    '/v1/../__mock/state',
    '/v1/%2e%2E/__mock/state',
    '/v1/.%2e/__mock/reset',
    '/v1/..\\__mock/state',
  ])('is asked for when the path reaches the control API through dot segments: %s', async (path) => {
    // The core routes URL.pathname, which resolves `..`, `%2e%2e` and `\`: the guard must judge the same path.
    const answer = await rawGet(server.url, { path, method: 'GET' });
    expect(answer.status).toBe(401);
  });

  it.each(['//[', 'http://[/x'])(
    'a request target URL cannot read (%s) gets 400 in the envelope',
    async (path) => {
      const answer = await rawGet(server.url, { path, method: 'GET', headers: { 'X-API-Key': 'mock-key' } });
      expect([answer.status, JSON.parse(answer.body)]).toEqual([
        400,
        {
          error_code: 10001,
          error_message: `request target ${JSON.stringify(path)} is not a URL`,
          succeed: false,
          data: null,
        },
      ]);
    },
  );

  it('is not asked for on a loopback host unless one is given', async () => {
    const loopback = await startMockServer({ port: 0, serviceOptions: testServiceOptions });
    expect(loopback.controlToken).toBeUndefined();
    await loopback.close();
  });
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
