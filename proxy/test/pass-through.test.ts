/**
 * The proxy as a pipe: in front of the kit's mock it answers the very bytes the mock answers (complete
 * and streamed WAV, MP3 and PCM, and an upload), a paced stream keeps its pace, headers pass but for
 * hop-by-hop ones, aborts pass on, an unreachable upstream is a 502 envelope, a malformed request is
 * passed on and reported, and the reports are written when it stops.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startProxy as startFromNode, startMockServer } from '../../entries/node.js';
import { type ProxyServer, startProxy } from '../index.js';
import type { ProxyReport } from '../types.js';
import { upstream, wav } from './upstreams.js';

let mock: MockServer;
let proxy: ProxyServer;
let reportDir: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  reportDir = await mkdtemp(join(tmpdir(), 'vk-proxy-'));
  proxy = await startProxy({ upstream: mock.url, port: 0, reportDir });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
  await rm(reportDir, { recursive: true, force: true });
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const synth = (format: string, extra: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'X-API-Key': 'mock-key', 'content-type': 'application/json', ...extra },
  body: JSON.stringify({ generate_text: 'The proxy passes every byte as it comes.', audio_format: format }),
});

async function answer(base: string, path: string, init: RequestInit) {
  const res = await fetch(base + path, init);
  const body = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    sha: sha(body),
    bytes: body.length,
  };
}

/** ms from sending to the first body chunk, and to the end, of a streamed answer. */
async function timing(base: string, init: RequestInit) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/text-to-speech/stream`, init);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let first: number | undefined;
  let chunks = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
    first ??= performance.now() - t0;
    chunks++;
  }
  return { first: first ?? Number.NaN, total: performance.now() - t0, chunks };
}

describe('the proxy in front of the kit’s mock', () => {
  it('answers the same bytes as the mock: WAV, MP3, PCM, complete and streamed', async () => {
    for (const path of ['/v1/text-to-speech', '/v1/text-to-speech/stream'])
      for (const format of ['wav', 'mp3', 'pcm']) {
        const direct = await answer(mock.url, path, synth(format));
        const through = await answer(proxy.url, path, synth(format));
        expect(through, `${path} ${format}`).toEqual(direct);
        expect(direct.status).toBe(200);
        expect(direct.bytes).toBeGreaterThan(1000);
      }
  });

  it('passes an upload byte for byte and its answer counts the same size', async () => {
    const file = new Uint8Array(300_000).map((_, i) => (i * 31) % 251);
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([file]), 'take one.wav');
    const res = await fetch(`${proxy.url}/v1/files/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key' },
      body: form,
    });
    const json = (await res.json()) as { data: { size: number; file_name: string } };
    expect(res.status).toBe(200);
    expect(json.data).toMatchObject({ size: file.length, file_name: 'take one.wav' });
    expect(proxy.report().violations).toEqual([]);
  });

  it('keeps a real-time paced stream paced: the first byte comes long before the end, not held back', async () => {
    const init = {
      ...synth('pcm', { Prefer: 'pace=realtime' }),
      body: JSON.stringify({ generate_text: 'Paced, as if live.', audio_format: 'pcm' }),
    };
    const [direct, through] = await Promise.all([timing(mock.url, init), timing(proxy.url, init)]);
    expect(direct.total).toBeGreaterThan(800); // paced: over a second of audio in real time
    expect(through.chunks).toBeGreaterThan(5);
    // Relative to the stream's own length, not a wall-clock bound: a proxy that held the answer whole
    // would send its first byte at the end.
    expect(through.first).toBeLessThan(through.total / 4);
  });

  it('reports a malformed multipart request, passes it on, and keeps serving', async () => {
    const res = await fetch(`${proxy.url}/v1/files/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'content-type': 'multipart/form-data; boundary=zzz' },
      body: '--zzzGARBAGE\r\n\r\n',
    });
    const body = (await res.json()) as { error_code: number };
    expect([res.status, body.error_code]).toEqual([400, 10001]);
    const noBoundary = await fetch(`${proxy.url}/v1/files/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(noBoundary.status).toBe(400);
    await noBoundary.arrayBuffer();
    // A request line no HTTP parser accepts: answered 400 by the proxy, which stays up.
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(proxy.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    // A request line Node accepts but whose target is no URL: passed on (the mock refuses it: a 400), noted, and
    // the proxy stays up (its observer threw out of the request handler before).
    const noUrl = await new Promise<string>((resolve) => {
      const socket = connect(proxy.port, '127.0.0.1', () =>
        socket.write('GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(noUrl).toMatch(/^HTTP\/1\.1 400/);
    const list = await fetch(`${proxy.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
    expect(list.status).toBe(200);
    await list.arrayBuffer();
    const report = proxy.report();
    const problems = report.exchanges.flatMap((e) => e.requestProblems);
    expect(problems).toContain(
      'the multipart form does not parse: a boundary is not followed by a line break',
    );
    expect(problems.some((p) => p.includes('not multipart/form-data with a boundary'))).toBe(true);
    expect(report.exchanges.flatMap((e) => e.notes)).toContain(
      'the request target "//[" is not a URL: not judged',
    );
    expect(report.violations).toEqual([]);
  });

  it('writes proxy.json, proxy.junit.xml and proxy.md when it stops', async () => {
    // As a user starts it: from voice-kit/node.
    const other = await startFromNode({ upstream: mock.url, port: 0, reportDir });
    const res = await fetch(`${other.url}/v1/voice/list?page_size=3`, {
      headers: { 'X-API-Key': 'mock-key' },
    });
    await res.arrayBuffer();
    const { report, files } = await other.close();
    expect(files.map((f) => f.slice(reportDir.length + 1))).toEqual([
      'proxy.json',
      'proxy.junit.xml',
      'proxy.md',
    ]);
    const json = JSON.parse(await readFile(join(reportDir, 'proxy.json'), 'utf8')) as ProxyReport;
    expect(json.counts).toEqual(report.counts);
    expect(json.ok).toBe(true);
    expect(json.exchanges).toHaveLength(1);
    expect(json.exchanges[0]).toMatchObject({
      method: 'GET',
      path: '/v1/voice/list?page_size=3',
      operationId: 'listVoices',
      status: 200,
    });
    expect(json.violations).toEqual([]);
    const xml = await readFile(join(reportDir, 'proxy.junit.xml'), 'utf8');
    expect(xml).toMatch(/<testsuites name="voice-kit proxy" tests="\d+" failures="0"/);
    expect(await readFile(join(reportDir, 'proxy.md'), 'utf8')).toContain('**PASS**');
  });
});

describe('the HAR of a session', () => {
  it('records a request whose target is no URL, and the proxy stays up', async () => {
    const file = join(reportDir, 'no-url.har');
    const p = await startProxy({ upstream: mock.url, port: 0, har: file });
    await new Promise<void>((resolve) => {
      const socket = connect(p.port, '127.0.0.1', () =>
        socket.write('GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      socket.on('close', () => resolve());
      socket.resume();
    });
    await (await fetch(`${p.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } })).arrayBuffer();
    await p.close();
    const har = JSON.parse(await readFile(file, 'utf8')) as {
      log: { entries: { request: { url: string } }[] };
    };
    expect(har.log.entries.map((e) => e.request.url)).toEqual([
      `${mock.url}//[`,
      `${mock.url}/v1/voice/list`,
    ]);
  });

  it('masks keys, tokens, cookies and secret query parameters in the HAR and the reports', async () => {
    const file = join(reportDir, 'secrets.har');
    const dir = await mkdtemp(join(tmpdir(), 'vk-proxy-secrets-'));
    const p = await startProxy({ upstream: mock.url, port: 0, har: file, reportDir: dir });
    await (
      await fetch(
        `${p.url}/v1/voice/list?page_size=99&api_key=query-key-secret-1&token=query-token-secret-2`,
        {
          headers: {
            'X-API-Key': 'mock-key-other-env',
            Cookie: 'sid=cookie-secret-value-3',
            'X-Auth-Token': 'auth-token-secret-4',
            Authorization: 'Bearer bearer-secret-5',
          },
        },
      )
    ).arrayBuffer();
    await p.close();
    const har = await readFile(file, 'utf8');
    for (const secret of [
      'query-key-secret',
      'query-token-secret',
      'cookie-secret',
      'auth-token-secret',
      'bearer-secret',
      'other',
    ])
      expect(har).not.toContain(secret);
    const entry = (
      JSON.parse(har) as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } }
    ).log.entries[0];
    expect(entry?.request.headers).toContainEqual({ name: 'X-API-Key', value: 'mo…nv' });
    for (const name of ['proxy.md', 'proxy.json']) {
      const report = await readFile(join(dir, name), 'utf8');
      expect(report).toContain('page_size=99');
      expect(report).not.toContain('query-key-secret');
      expect(report).not.toContain('query-token-secret');
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('holds every exchange; audio and uploads are side files with the very bytes, JSON is inline', async () => {
    const file = join(reportDir, 'session.har');
    const p = await startProxy({ upstream: mock.url, port: 0, har: file });
    const wavRes = await fetch(`${p.url}/v1/text-to-speech`, synth('wav'));
    const wavBytes = new Uint8Array(await wavRes.arrayBuffer());
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array(40_000).fill(9)]), 'a.wav');
    await (
      await fetch(`${p.url}/v1/files/upload`, {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key' },
        body: form,
      })
    ).arrayBuffer();
    const list = await (
      await fetch(`${p.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } })
    ).text();
    const { files } = await p.close();
    expect(files).toEqual([file]);
    const har = JSON.parse(await readFile(file, 'utf8')) as {
      log: {
        version: string;
        entries: {
          request: { method: string; url: string; postData?: { _file?: string; size: number } };
          response: {
            status: number;
            content: { text?: string; _file?: string; size: number; mimeType: string };
          };
          _exchange: number;
        }[];
      };
    };
    expect(har.log.version).toBe('1.2');
    const [synthesis, upload, listing] = har.log.entries;
    expect(
      har.log.entries.map((e) => [
        e.request.method,
        new URL(e.request.url).pathname,
        e.response.status,
        e._exchange,
      ]),
    ).toEqual([
      ['POST', '/v1/text-to-speech', 200, 1],
      ['POST', '/v1/files/upload', 200, 2],
      ['GET', '/v1/voice/list', 200, 3],
    ]);
    expect(synthesis?.response.content).toMatchObject({
      mimeType: 'audio/wav',
      size: wavBytes.length,
      _file: 'session.har.bodies/1-response.wav',
    });
    expect(synthesis?.response.content.text).toBeUndefined();
    await expect
      .poll(async () => sha(await readFile(join(reportDir, synthesis?.response.content._file ?? ''))))
      .toBe(sha(wavBytes));
    expect(upload?.request.postData?._file).toBe('session.har.bodies/2-request.multipart');
    expect(upload?.request.postData?.size).toBeGreaterThan(40_000);
    expect(listing?.response.content.text).toBe(list);
  });
});

describe('the proxy as a pipe', () => {
  it('drops hop-by-hop headers, keeps the rest (repeated ones too), and sends the upstream its own Host', async () => {
    let seenHost: string | undefined;
    let seenHop: string | undefined;
    const up = await upstream((req, _body, res) => {
      seenHost = req.headers.host;
      seenHop = req.headers['x-hop'] as string | undefined;
      res.writeHead(
        200,
        [
          ['Content-Type', 'application/json'],
          ['Set-Cookie', 'a=1'],
          ['Set-Cookie', 'b=2'],
          ['Connection', 'X-Up-Hop'],
          ['X-Up-Hop', '1'],
          ['X-Kept', 'yes'],
        ].flat(),
      );
      res.end(
        '{"error_code":0,"error_message":"","succeed":true,"data":{"list":[],"has_more":false,"total":0,"remainingFreeCloneCount":0}}',
      );
    });
    const p = await startProxy({ upstream: up.url, port: 0 });
    try {
      const res = await new Promise<http.IncomingMessage>((resolve) =>
        http.get(
          `${p.url}/v1/voice/list`,
          { headers: { 'X-API-Key': 'k', Connection: 'X-Hop', 'X-Hop': '1' } },
          resolve,
        ),
      );
      res.resume();
      expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(res.headers['x-kept']).toBe('yes');
      expect(res.headers['x-up-hop']).toBeUndefined();
      expect(seenHost).toBe(new URL(up.url).host);
      expect(seenHop).toBeUndefined();
    } finally {
      await p.close();
      await up.close();
    }
  });

  it('passes an abort on: a client that leaves cuts the upstream answer, an upstream that cuts cuts the client', async () => {
    let upstreamClosed = false;
    const up = await upstream((req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(wav(2400));
      res.on('close', () => {
        upstreamClosed = true;
      });
      if (req.url?.endsWith('stream')) return; // never ends: the client leaves
      setTimeout(() => res.destroy(), 50);
    });
    const p = await startProxy({ upstream: up.url, port: 0 });
    try {
      const controller = new AbortController();
      const res = await fetch(`${p.url}/v1/text-to-speech/stream`, {
        ...synth('wav'),
        signal: controller.signal,
      });
      await (res.body as ReadableStream).getReader().read();
      controller.abort();
      await expect.poll(() => upstreamClosed, { timeout: 2000 }).toBe(true);
      const cut = await fetch(`${p.url}/v1/text-to-speech`, synth('wav'));
      await expect(cut.arrayBuffer()).rejects.toThrow();
      await expect.poll(() => p.report().exchanges.map((e) => e.aborted)).toEqual(['client', 'upstream']);
      // The client's leaving is no fault of the upstream; the upstream breaking its answer off is.
      expect(p.report().violations.map((v) => [v.rule, v.operationId])).toEqual([
        ['answer.complete', 'synthesizeSpeech'],
      ]);
    } finally {
      await p.close();
      await up.close();
    }
  });

  it('answers 502 in the envelope when the upstream cannot be reached, and reports no violation', async () => {
    const up = await upstream(() => {});
    const url = up.url;
    await up.close();
    const p = await startProxy({ upstream: url, port: 0 });
    try {
      const res = await fetch(`${p.url}/v1/voice/list`, { headers: { 'X-API-Key': 'k' } });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(502);
      expect(body).toMatchObject({ succeed: false, error_code: 10000, data: null });
      const report = p.report();
      expect(report.counts).toMatchObject({ exchanges: 1, upstreamErrors: 1, violations: 0 });
      expect(report.exchanges[0]?.aborted).toBe('upstream-unreachable');
    } finally {
      await p.close();
    }
  });
});
