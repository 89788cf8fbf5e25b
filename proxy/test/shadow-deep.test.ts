/**
 * `--shadow` against the round of deviations that only show after some state was built
 * (conformance/test/deep-deviations.ts), driven by a scripted client that builds that state: five
 * voices saved one by one, each spoken at once (complete and streamed) and walked with the page sizes
 * that shape it, the other keys' views, a refused save, a cursor held across a delete, deletes by
 * keys of other scopes. With --shadow each deviation is reported; the clean mock and the allowed
 * variations give no violation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitFixtures } from '../../conformance/setup/fixture-source.js';
import { deepDeviations, deepVariations, type Wrapper } from '../../conformance/test/deep-deviations.js';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';

const keys = {
  'mock-key': { organization: 'org-1', project: 'project-1', environment: 'production' },
  'mock-key-no-clone': { organization: 'org-1', project: 'project-1', environment: 'production' },
  'mock-key-other-project': { organization: 'org-1', project: 'project-2', environment: 'production' },
  'mock-key-other-env': { organization: 'org-1', project: 'project-1', environment: 'staging' },
  'mock-key-other-org': { organization: 'org-2', project: 'project-3', environment: 'production' },
};
const main = 'mock-key';
const others = Object.keys(keys).filter((k) => k !== main);

let mock: MockServer;
let recording: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  recording = new Uint8Array((await kitFixtures('valid-3s'))?.bytes ?? []);
});
afterAll(() => mock?.close());

/** An upstream that answers through `handle` in front of the mock (none: the mock as it is). */
async function upstream(handle: Wrapper | undefined) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body = chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
    const request = new Request(`${mock.url}${req.url}`, {
      method: req.method,
      headers,
      ...(body ? { body } : {}),
    });
    const answer = handle ? await handle(request, (r) => fetch(r)) : await fetch(request);
    const out = Buffer.from(await answer.arrayBuffer());
    const h: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== 'content-length' && k !== 'transfer-encoding') h[k] = v;
    });
    const stream = req.url?.startsWith('/v1/text-to-speech/stream') && answer.status === 200;
    res.writeHead(answer.status, stream ? h : { ...h, 'content-length': String(out.byteLength) });
    res.end(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The scripted client: builds depth, looks through every view, writes across scopes. */
async function deepFlow(base: string): Promise<void> {
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { 'x-api-key': key } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined)
      Object.assign(init, {
        body: JSON.stringify(body),
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
      });
    const res = await fetch(base + path, init);
    const text = await res.text();
    try {
      return JSON.parse(text) as { data?: Record<string, unknown> | null };
    } catch {
      return {};
    }
  };
  const walk = async (size: number, key = main) => {
    let cursor: string | undefined;
    for (let page = 0; page < 12; page++) {
      const q = new URLSearchParams({ page_size: String(size), ...(cursor ? { voice_id: cursor } : {}) });
      const data = (await call('GET', `/v1/voice/list?${q}`, key)).data;
      if (data?.has_more !== true || typeof data.next_voice_id !== 'string') return;
      cursor = data.next_voice_id;
    }
  };
  const views = async () => {
    for (const k of others) await call('GET', '/v1/voice/list', k);
  };
  const speak = async (voice: string) => {
    await call('POST', '/v1/text-to-speech', main, { generate_text: 'Hi.', voice_id: voice });
    await call('POST', '/v1/text-to-speech/stream', main, { generate_text: 'Hi.', voice_id: voice });
  };
  const upload = async () => {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([recording]), 'ref.wav');
    return (await call('POST', '/v1/files/upload', main, form)).data?.object_key as string | undefined;
  };

  await walk(20);
  await views();
  const refs: string[] = [];
  for (let i = 0; i < 5; i++) {
    const ref = await upload();
    if (ref) refs.push(ref);
  }
  const ref = refs[0];
  const voices: string[] = [];
  for (let n = 1; n <= 5; n++) {
    const id = `deep_v${n}`;
    await call('POST', '/v1/voice/save', main, { voice_id: id, ref_audio: ref });
    voices.push(id);
    await speak(id);
    for (const size of new Set([n - 1, n, Math.ceil(n / 2), 1])) if (size >= 1) await walk(size);
  }
  await views();
  await call('POST', '/v1/voice/save', main, { voice_id: `deep_${'l'.repeat(31)}`, ref_audio: ref });
  await walk(20);
  // A cursor held across a delete, then fresh walks.
  const first = (await call('GET', '/v1/voice/list?page_size=1', main)).data;
  await call('DELETE', '/v1/voice/deep_v2', main);
  if (typeof first?.next_voice_id === 'string')
    await call('GET', `/v1/voice/list?page_size=1&voice_id=${first.next_voice_id}`, main);
  await walk(1);
  await walk(2);
  await walk(20);
  // Deletes by keys of other scopes leave main's voice.
  await call('DELETE', '/v1/voice/deep_v5', 'mock-key-other-org');
  await call('DELETE', '/v1/voice/deep_v5', 'mock-key-other-env');
  await walk(20);
  await speak('deep_v5');
  await views();
  for (const id of voices) await call('DELETE', `/v1/voice/${id}`, main);
  await walk(20);
  await views();
}

async function watch(handle: Wrapper | undefined): Promise<ProxyReport> {
  await fetch(`${mock.url}/__mock/reset`, { method: 'POST' }).then((r) => r.arrayBuffer());
  const up = await upstream(handle);
  const proxy = await startProxy({ upstream: up.url, port: 0, keys, shadow: true });
  try {
    await deepFlow(proxy.url);
  } finally {
    await up.close().catch(() => undefined);
  }
  // The shadow's verdicts come a moment after their exchanges: close() waits for the last.
  return (await proxy.close()).report;
}

const musts = (r: ProxyReport) =>
  r.violations.filter((v) => v.severity === 'must').map((v) => `${v.rule} @${v.exchange}: ${v.seen}`);

describe('proxy --shadow against deviations that need depth', { timeout: 60_000 }, () => {
  it('the clean mock gives no violation', async () => {
    const r = await watch(undefined);
    expect(r.counts.exchanges).toBeGreaterThan(80);
    expect(r.violations.map((v) => `${v.rule}: ${v.seen}`)).toEqual([]);
  });

  it.each(deepVariations)('allowed: $name gives no violation', async (v) => {
    const r = await watch(v.make());
    expect(r.violations.map((x) => `${x.rule}: ${x.seen}`)).toEqual([]);
  });

  it.each(deepDeviations)('reports ($family): $name', async (d) => {
    const shadowed = await watch(d.make());
    expect(musts(shadowed).length, 'no must violation with --shadow').toBeGreaterThan(0);
  });
});
