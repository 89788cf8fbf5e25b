import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../entries/node.js';
import { errors, limits } from '../../openapi/contract.js';
import { notPublicMessage } from '../core/reference/reference-url.js';
import { envelope, json, nodeTarget, rawGet, referenceWav, type Target } from './helpers.js';

describe('over real HTTP', () => {
  let target: Target;
  let files: Server;
  let filesUrl: string;
  let connections = 0;
  beforeAll(async () => {
    // The reference server below is on loopback: only a mock that allows private URLs may fetch it.
    target = await nodeTarget({ allowPrivateUrls: true });
    files = createServer((req, res) => {
      if (req.url === '/ref.wav') res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(referenceWav());
      else if (req.url === '/huge.wav') {
        // One byte over the 20 MiB reference limit, written in 1 MiB pieces.
        res.writeHead(200, { 'Content-Type': 'audio/wav' });
        const piece = new Uint8Array(1 << 20);
        for (let i = 0; i < 20; i++) res.write(piece);
        res.end(new Uint8Array(limits.referenceMaxBytes.value - 20 * (1 << 20) + 1));
      } else res.writeHead(404).end();
    });
    files.on('connection', () => connections++);
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await target.close();
    await new Promise((resolve) => files.close(resolve));
  });

  it.each([
    ['/ref.wav', 200, 0],
    ['/missing.wav', 400, errors.refAudioNotAccessible.code],
    ['/huge.wav', errors.refAudioTooLarge.status, errors.refAudioTooLarge.code],
  ])('ref_audio URL %s → %i', async (path, status, code) => {
    const res = await target.request(
      '/v1/voice/save',
      json({ voice_id: `url${status}`, ref_audio: `${filesUrl}${path}` }),
    );
    expect([res.status, (await envelope(res, 'saveVoice')).error_code]).toEqual([status, code]);
  });

  it('answers headers larger than Node accepts with a 431 envelope', async () => {
    const url = new URL(await target.request('/__mock/clock').then((r) => r.url));
    const answer = await rawGet(`${url.origin}/v1/voice/list`, { headers: { 'X-Big': 'a'.repeat(32_000) } });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({
      error_code: errors.invalidRequest.code,
      succeed: false,
      data: null,
    });
  });
});

describe('over real HTTP, by default: ref_audio URLs on loopback are refused without connecting', () => {
  let files: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    files = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(referenceWav()),
    );
    files.on('connection', () => connections++);
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    port = (files.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => files.close(resolve)));
  // Each test counts the connections it made, whichever ran before it.
  beforeEach(() => {
    connections = 0;
  });

  async function withServer<T>(
    options: Parameters<typeof startMockServer>[0],
    use: (base: string) => Promise<T>,
  ): Promise<T> {
    const server = await startMockServer({ port: 0, ...options });
    try {
      return await use(server.url);
    } finally {
      await server.close();
    }
  }

  it('refuses every loopback spelling with 400/20012 and one message; the reference server sees nothing', async () => {
    const spellings = [
      `http://127.0.0.1:${port}/ref.wav`,
      `http://localhost:${port}/ref.wav`,
      `http://LOCALHOST.:${port}/ref.wav`,
      `http://[::1]:${port}/ref.wav`,
      `http://[::ffff:127.0.0.1]:${port}/ref.wav`,
      `http://2130706433:${port}/ref.wav`,
      `http://0x7f.0.0.1:${port}/ref.wav`,
      `http://127.1:${port}/ref.wav`,
      `http://0.0.0.0:${port}/ref.wav`,
    ];
    const seen = await withServer({}, (base) =>
      Promise.all(
        spellings.map(async (url, i) => {
          const res = await fetch(`${base}/v1/voice/save`, json({ voice_id: `loop${i}`, ref_audio: url }));
          const body = (await res.json()) as { error_code: number; error_message: string };
          return [res.status, body.error_code, body.error_message];
        }),
      ),
    );
    const refused = [400, errors.refAudioNotAccessible.code, notPublicMessage];
    expect(seen).toEqual(spellings.map(() => refused));
    expect(connections).toBe(0);
  });

  it('refuses a host name the server resolves to loopback', async () => {
    const seen = await withServer(
      { serviceOptions: { resolveHost: async () => ['127.0.0.1'] } },
      async (base) => {
        const res = await fetch(
          `${base}/v1/voice/save`,
          json({ voice_id: 'byname', ref_audio: `http://fixtures.test:${port}/ref.wav` }),
        );
        return [res.status, ((await res.json()) as { error_message: string }).error_message];
      },
    );
    expect(seen).toEqual([400, notPublicMessage]);
    expect(connections).toBe(0);
  });

  it('with allowPrivateUrls fetches the loopback reference and saves the voice', async () => {
    const status = await withServer({ allowPrivateUrls: true }, async (base) => {
      const res = await fetch(
        `${base}/v1/voice/save`,
        json({ voice_id: 'allowed', ref_audio: `http://localhost:${port}/ref.wav` }),
      );
      return res.status;
    });
    expect(status).toBe(200);
    expect(connections).toBe(1);
  });

  it('takes allowPrivateUrls from the config too', async () => {
    const status = await withServer({ config: { allowPrivateUrls: true } }, async (base) => {
      const res = await fetch(
        `${base}/v1/voice/save`,
        json({ voice_id: 'configured', ref_audio: `http://127.0.0.1:${port}/ref.wav` }),
      );
      return res.status;
    });
    expect(status).toBe(200);
  });
});
