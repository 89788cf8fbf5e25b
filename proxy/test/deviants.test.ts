/**
 * The proxy in front of upstreams that each break exactly one rule of the contract: every one gives
 * exactly the violation expected (rule, operation, exchange), and the clean answers give none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../entries/node.js';
import { type ProxyServer, startProxy } from '../index.js';
import type { Violation } from '../types.js';
import { envelope, sendJson, type Upstream, upstream, wav } from './upstreams.js';

const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function behind(handle: Parameters<typeof upstream>[0]): Promise<{ proxy: ProxyServer; up: Upstream }> {
  const up = await upstream(handle);
  const proxy = await startProxy({ upstream: up.url, port: 0 });
  open.push(up, proxy);
  return { proxy, up };
}

const key = { 'X-API-Key': 'k' };
const synth = (format: string) => ({
  method: 'POST',
  headers: { ...key, 'content-type': 'application/json' },
  body: JSON.stringify({ generate_text: 'Hello there.', audio_format: format }),
});

/** The violations the proxy found for one request, after its answer was read whole. */
async function violationsOf(proxy: ProxyServer, path: string, init?: RequestInit): Promise<Violation[]> {
  const res = await fetch(proxy.url + path, init);
  await res.arrayBuffer();
  await new Promise((r) => setTimeout(r, 20)); // the exchange ends in the proxy's turn after the last byte
  return proxy.report().violations.slice();
}

const rulesOf = (vs: readonly Violation[]) => vs.map((v) => v.rule);

describe('a long session against a bad upstream', () => {
  it('keeps at most maxExchanges violations, and counts them all', async () => {
    // An error envelope on HTTP 200: a violation of every list answer (a 4xx status is open for list).
    const up = await upstream((_req, _body, res) => sendJson(res, 200, envelope(413, 10001)));
    const proxy = await startProxy({ upstream: up.url, port: 0, maxExchanges: 2 });
    open.push(up, proxy);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${proxy.url}/v1/voice/list`, { headers: key });
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 20));
    const report = proxy.report();
    expect([report.exchanges.length, report.violations.length]).toEqual([2, 2]);
    expect(report.counts.exchanges).toBe(5);
    expect(report.counts.violations).toBeGreaterThanOrEqual(5);
    expect(report.counts.must).toBe(report.counts.violations);
    expect(report.ok).toBe(false);
  });
});

describe('the proxy against deviant upstreams', () => {
  it('a wrong error_code for the status (413 with 10001 on upload)', async () => {
    const { proxy } = await behind((_req, _body, res) => sendJson(res, 413, envelope(413, 10001)));
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array(10)]), 'a.wav');
    const vs = await violationsOf(proxy, '/v1/files/upload', { method: 'POST', headers: key, body: form });
    expect(rulesOf(vs)).toEqual(['error-code.for-status']);
    expect(vs[0]).toMatchObject({
      severity: 'must',
      operationId: 'uploadFile',
      operation: 'POST /v1/files/upload',
      exchange: 1,
      seen: 'error_code 10001 comes with HTTP 413; §7.1 pairs it with 400',
    });
    expect(vs[0]?.section).toContain('§7.1');
  });

  it('a 401 with another code than 10003', async () => {
    const { proxy } = await behind((_req, _body, res) => sendJson(res, 401, envelope(401, 10001)));
    const vs = await violationsOf(proxy, '/v1/voice/list', { headers: key });
    expect(rulesOf(vs)).toEqual(['error-code.for-status']);
  });

  it('WAV header sizes that disagree with the bytes', async () => {
    const { proxy } = await behind((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end(wav(24000, { riff: 1000, data: 964 }));
    });
    const vs = await violationsOf(proxy, '/v1/text-to-speech', synth('wav'));
    // One answer, one violation per rule: both sizes are named in its `seen`.
    expect(rulesOf(vs)).toEqual(['audio.body']);
    expect(vs[0]?.seen).toMatch(
      /RIFF size 1000 does not match[^;]*; WAV: the data chunk claims 964 bytes, 48000/,
    );
  });

  it('garbage in an MP3', async () => {
    const mock = await startMockServer({ port: 0 });
    open.push(mock);
    const mp3 = Buffer.from(await (await fetch(`${mock.url}/v1/text-to-speech`, synth('mp3'))).arrayBuffer());
    const { proxy } = await behind((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.concat([mp3.subarray(0, 4000), Buffer.alloc(200, 0x33), mp3.subarray(4000)]));
    });
    const vs = await violationsOf(proxy, '/v1/text-to-speech', synth('mp3'));
    expect(rulesOf(vs)).toEqual(['audio.body']);
    expect(vs[0]?.seen).toMatch(/^MP3: no MPEG audio frame at byte \d+/);
  });

  it('PCM with an odd byte count, and PCM without its headers', async () => {
    const pcmHeaders = { 'x-audio-sample-rate': '24000', 'x-audio-channels': '1', 'x-audio-bit-depth': '16' };
    const odd = await behind((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm', ...pcmHeaders });
      res.end(Buffer.alloc(9601, 1));
    });
    expect(rulesOf(await violationsOf(odd.proxy, '/v1/text-to-speech', synth('pcm')))).toEqual([
      'audio.body',
    ]);
    const bare = await behind((_req, _body, res) => {
      res.writeHead(200, {
        'content-type': 'audio/pcm',
        'x-audio-sample-rate': '24000',
        'x-audio-channels': '1',
      });
      res.end(wav(4800).subarray(44));
    });
    const vs = await violationsOf(bare.proxy, '/v1/text-to-speech', synth('pcm'));
    expect(rulesOf(vs)).toEqual(['audio.pcm-headers']);
    expect(vs[0]?.seen).toBe('the X-Audio-Bit-Depth header is missing');
  });

  it('a list longer than page_size', async () => {
    const voice = (i: number) => ({ voice_id: `v${i}`, voice_url: `https://x.invalid/${i}`, created_at: 1 });
    const { proxy } = await behind((_req, _body, res) =>
      sendJson(
        res,
        200,
        envelope(200, 0, {
          list: [voice(1), voice(2), voice(3)],
          has_more: false,
          total: 3,
          remainingFreeCloneCount: 1,
        }),
      ),
    );
    const vs = await violationsOf(proxy, '/v1/voice/list?page_size=2', { headers: key });
    expect(rulesOf(vs)).toEqual(['list.page-size']);
    expect(vs[0]?.seen).toBe('3 voices in a page of page_size 2');
  });

  it('an upload answer whose size is not the bytes sent', async () => {
    const { proxy } = await behind((_req, _body, res) =>
      sendJson(
        res,
        200,
        envelope(200, 0, { object_key: 'k1', file_name: 'a.wav', size: 1000, scene: 'audio' }),
      ),
    );
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([new Uint8Array(12345)]), 'a.wav');
    const vs = await violationsOf(proxy, '/v1/files/upload', { method: 'POST', headers: key, body: form });
    expect(rulesOf(vs)).toEqual(['upload.size']);
    expect(vs[0]?.seen).toBe('size is 1000; the uploaded file has 12345 bytes');
  });

  it('a stream sent as one lump after a delay, and the same bytes sent progressively', async () => {
    const audio = wav(48000); // 2 s
    const lump = await behind((_req, _body, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(audio);
      }, 1100);
    });
    const vs = await violationsOf(lump.proxy, '/v1/text-to-speech/stream', synth('wav'));
    expect(rulesOf(vs)).toEqual(['stream.progressive']);
    const paced = await behind((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      let at = 0;
      const next = () => {
        res.write(audio.subarray(at, at + 9600));
        at += 9600;
        if (at < audio.length) setTimeout(next, 40);
        else res.end();
      };
      setTimeout(next, 300);
    });
    expect(await violationsOf(paced.proxy, '/v1/text-to-speech/stream', synth('wav'))).toEqual([]);
  });

  it('a stream with Content-Length', async () => {
    const { proxy } = await behind((_req, _body, res) => {
      const audio = wav(2400);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(audio.length) });
      res.end(audio);
    });
    expect(rulesOf(await violationsOf(proxy, '/v1/text-to-speech/stream', synth('wav')))).toEqual([
      'stream.chunked',
    ]);
  });

  it('an undocumented status', async () => {
    const { proxy } = await behind((_req, _body, res) =>
      sendJson(
        res,
        202,
        envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }),
      ),
    );
    const vs = await violationsOf(proxy, '/v1/voice/list', { headers: key });
    expect(rulesOf(vs)).toEqual(['status.documented']);
    expect(vs[0]?.seen).toMatch(/^HTTP 202; listVoices documents 200, /);
  });

  it('a missing key answered 200', async () => {
    const { proxy } = await behind((_req, _body, res) =>
      sendJson(
        res,
        200,
        envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }),
      ),
    );
    const vs = await violationsOf(proxy, '/v1/voice/list');
    expect(rulesOf(vs)).toEqual(['auth.missing-key']);
    expect(vs[0]).toMatchObject({
      operationId: 'listVoices',
      operation: 'GET /v1/voice/list',
      section: '§5.1, §5.5',
    });
  });

  it('documented upstream errors are no violations: 401, 413 and 429 with Retry-After', async () => {
    const { proxy } = await behind((req, _body, res) => {
      if (!req.headers['x-api-key']) return sendJson(res, 401, envelope(401, 10003));
      if (req.url?.includes('big')) return sendJson(res, 413, envelope(413, 20010));
      sendJson(res, 429, envelope(429, 10005), { 'retry-after': '60' });
    });
    const form = () => {
      const f = new FormData();
      f.set('scene', 'audio');
      f.set('file', new Blob([new Uint8Array(10)]), 'a.wav');
      return f;
    };
    await violationsOf(proxy, '/v1/files/upload', { method: 'POST', body: form() });
    await violationsOf(proxy, '/v1/files/upload?big', { method: 'POST', headers: key, body: form() });
    expect(
      await violationsOf(proxy, '/v1/files/upload', { method: 'POST', headers: key, body: form() }),
    ).toEqual([]);
    expect(proxy.report().counts.exchanges).toBe(3);
  });
});
