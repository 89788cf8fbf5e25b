import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, limits } from '../../openapi/contract.js';
import { envelope, json, nodeTarget, rawGet, referenceWav, type Target } from './helpers.js';

describe('over real HTTP', () => {
  let target: Target;
  let files: Server;
  let filesUrl: string;
  beforeAll(async () => {
    target = await nodeTarget();
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
