/**
 * The control guard judges the URL the core routes, not the raw request target (red-team D1): raw
 * targets that one URL parse refuses and another reads (`/\[/../../__mock/populate`) are sent over a
 * raw socket with a foreign Host and Origin and no token, and never reach the control API. A seeded
 * fuzzer then checks, target by target, that the guard refuses exactly what the core would route to
 * the control API. Loopback only.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BytesAnswer } from '../core/answer/answer.js';
import { voiceAudioPath } from '../core/reference/signed-url.js';
import { createMockService, type MockService } from '../core/service.js';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

const token = 'routing-test-token';

/** Sends one raw request (no client URL handling at all); resolves with the status line's code and the body. */
function raw(url: string, text: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
        body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
      }),
    );
    socket.on('error', reject);
    setTimeout(() => socket.destroy(new Error('no answer in 5 s')), 5000);
  });
}

describe('raw targets that read as the control API only after URL resolution', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, serviceOptions: testServiceOptions, controlToken: token });
  });
  afterAll(() => server.close());

  it.each([
    ['POST', '/\\[/../../__mock/populate', '{"voices":3}'],
    ['GET', '/\\:1/../../__mock/snapshot', ''],
    ['POST', '/\\%/../../__mock/reset', ''],
    ['GET', '/\\[/../../__mock/state', ''],
    ['GET', '/\\%/../../__mock/clock', ''],
  ])('%s %s with a foreign Host and Origin and no token is refused', async (method, target, body) => {
    const before = server.service.state.voices.lastSequence;
    const answer = await raw(
      server.url,
      `${method} ${target} HTTP/1.1\r\nHost: attacker.example\r\nOrigin: http://evil.example\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect([400, 401, 403]).toContain(answer.status);
    expect(JSON.parse(answer.body)).toMatchObject({ succeed: false, data: null });
    expect(server.service.state.voices.lastSequence).toBe(before);
  });

  it.each(['/\\[/../../__mock/snapshot', '/\\:1/../../__mock/snapshot'])(
    '%s with the mock own Host and no token asks for the token (401)',
    async (target) => {
      const { host } = new URL(server.url);
      const answer = await raw(
        server.url,
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(401);
    },
  );
});

/** mulberry32: a seeded generator, so a failing target is found again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces raw targets are made of: separators, escapes, dot segments, authorities, control names. */
const pieces = [
  '/',
  '\\',
  '%',
  '[',
  ']',
  ':',
  ':1',
  '..',
  '.',
  '%2e',
  '%2E',
  '%2e%2e',
  '.%2e',
  '//',
  '%5c',
  '%2f',
  '@',
  '?',
  '#',
  'v1',
  '__mock',
  '__mock/',
  'reset',
  'state',
  'snapshot',
  'voice-audio/',
  'x',
  '%00',
  '%',
  ';',
];
const prefixes = ['/', '/', '/', '/\\', '//', 'http://127.0.0.1', 'http://[', 'HTTP://x', '*', ''];

/** A raw request target: a prefix and 1–10 pieces, often with `__mock` somewhere. */
function fuzzTarget(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  let target = pick(prefixes);
  const count = 1 + Math.floor(random() * 10);
  for (let i = 0; i < count; i++) target += pick(pieces);
  if (random() < 0.5) target += `/../__mock/${pick(['reset', 'state', 'populate', ''])}`;
  return target;
}

/** What the guard must refuse without a token: the control API, its dashboard, not the voice audio. */
const isGuarded = (path: string) =>
  (path.startsWith('/__mock/') || path === '/__mock') && !path.startsWith(voiceAudioPath);

describe('the guard judges the path the core routes (seeded fuzz, 2,000 targets)', () => {
  let server: MockServer;
  /** The URL the core was handed for each request number (X-Seq), when it was handed one. */
  const routed = new Map<string, string>();
  let real: MockService;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  beforeAll(async () => {
    real = createMockService(testServiceOptions);
    // The core only records what it would route: no control operation runs, so fuzzing changes nothing.
    const recording: MockService = {
      ...real,
      answer: async (r) => {
        routed.set(r.headers.get('x-seq') ?? '', r.url);
        return new BytesAnswer(200, new Uint8Array(0), { 'Content-Type': 'text/plain' });
      },
    };
    server = await startMockServer({ port: 0, service: recording, controlToken: token });
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
    await real.close();
  });

  const send = (path: string, seq: string, withToken: boolean) =>
    new Promise<number>((resolve, reject) => {
      const headers: Record<string, string> = { 'X-Seq': seq, Accept: 'application/json' };
      if (withToken) headers['X-Mock-Control-Token'] = token;
      const sent = request(server.url, { agent, path, headers }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode ?? 0));
      });
      sent.on('error', reject);
      sent.end();
    });

  it('refuses (400/401) exactly the targets the core would route to the control API', async () => {
    const random = seeded(20261125);
    const targets = Array.from({ length: 2000 }, () => fuzzTarget(random));
    const mismatches: string[] = [];
    let guarded = 0;
    for (const [i, target] of targets.entries()) {
      // With the token the guard lets everything through that parses: the core's routed URL.
      const withToken = await send(target, `t${i}`, true);
      const href = routed.get(`t${i}`);
      const corePath = href === undefined ? undefined : new URL(href).pathname;
      const status = await send(target, `n${i}`, false);
      const reached = routed.has(`n${i}`);
      if (corePath === undefined) {
        // Refused before the core with the token too: a target that is no URL, 400 both times.
        if (withToken !== 400 || status !== 400 || reached)
          mismatches.push(`${target}: ${withToken}/${status}`);
        continue;
      }
      if (isGuarded(corePath)) guarded += 1;
      const refused = status === 401 && !reached;
      if (refused !== isGuarded(corePath))
        mismatches.push(`${target} → core ${corePath}, without token ${status}`);
    }
    expect(mismatches).toEqual([]);
    // The fuzzer reaches both sides of the guard often.
    expect(guarded).toBeGreaterThan(150);
    expect(targets.length - guarded).toBeGreaterThan(300);
  }, 60_000);
});
