import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errors, limits } from '../../openapi/contract.js';
import {
  envelope,
  inProcessTarget,
  json,
  nodeTarget,
  referenceWav,
  type Target,
  uploadInit,
} from './helpers.js';

const boundary = 'voicekitboundary';

/** A multipart body of one file of `size` zero bytes, produced chunk by chunk (never held whole). */
function streamedUpload(size: number, key = 'mock-key'): RequestInit {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="scene"\r\n\r\naudio\r\n--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const block = new Uint8Array(1_048_576);
  let left = size;
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 'head') {
        controller.enqueue(head);
        stage = 'file';
      } else if (stage === 'file' && left > 0) {
        const n = Math.min(left, block.byteLength);
        controller.enqueue(block.subarray(0, n));
        left -= n;
      } else if (stage !== 'done' && stage !== 'tail') {
        stage = 'tail';
        controller.enqueue(tail);
      } else {
        stage = 'done';
        controller.close();
      }
    },
  });
  return {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit;
}

const tiny = new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0]);

describe('upload size limit (§4.1: at most 50 MiB, exactly 52,428,800 accepted)', () => {
  let inProcess: Target;
  let node: Target;
  beforeAll(async () => {
    [inProcess, node] = await Promise.all([inProcessTarget(), nodeTarget()]);
  });
  afterAll(async () => {
    await Promise.all([inProcess.close(), node.close()]);
  });

  it.each([
    ['in-process', limits.uploadMaxBytes.value, 200, 0],
    ['in-process', limits.uploadMaxBytes.value + 1, 413, errors.fileTooLarge.code],
    ['node', limits.uploadMaxBytes.value + 1, 413, errors.fileTooLarge.code],
    ['node', 3 * limits.uploadMaxBytes.value, 413, errors.fileTooLarge.code],
  ] as const)('%s: %i bytes → %i', async (where, size, status, code) => {
    const target = where === 'node' ? node : inProcess;
    const res = await target.request('/v1/files/upload', streamedUpload(size));
    const body = await envelope(res, 'uploadFile');
    expect([res.status, body.error_code, body.error_message]).toEqual([status, code, expect.any(String)]);
    if (status === 200) expect(body.data.size).toBe(size);
  });
});

describe('upload rate limit (§8: 30 per user per hour, shared across the user’s keys)', () => {
  let target: Target;
  beforeAll(async () => {
    target = await inProcessTarget();
  });
  afterAll(() => target.close());
  beforeEach(() => target.service.reset());

  const upload = (key: string, name = 'a.wav') =>
    target.request('/v1/files/upload', uploadInit(tiny, name, key));

  it('counts every key of the user, spares other users, and frees up when the clock moves an hour', async () => {
    const keys = ['mock-key', 'mock-key-other-project', 'mock-key-other-env'];
    for (let i = 0; i < limits.uploadRatePerHour.value; i++) {
      expect((await upload(keys[i % keys.length] as string)).status).toBe(200);
    }
    target.service.clock.advance(60_000);
    const refused = await upload('mock-key-no-clone');
    const refusal = await envelope(refused, 'uploadFile');
    expect([refused.status, refusal.error_code]).toEqual([429, errors.uploadRateLimited.code]);
    // The oldest counted upload leaves the window an hour after it was made: 3540 s from now.
    expect(refused.headers.get('retry-after')).toBe('3540');
    expect(refusal.error_message).toContain('retry in 3540 s');
    expect((await upload('mock-key-other-org')).status).toBe(200);
    await target.request('/__mock/clock/advance', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: limits.uploadRateWindowSeconds.value }),
    });
    expect((await upload('mock-key')).status).toBe(200);
  });

  it('POST /__mock/rate-limit/reset {key} frees that key’s user only, without moving the clock', async () => {
    for (let i = 0; i < limits.uploadRatePerHour.value; i++) {
      expect((await upload('mock-key')).status).toBe(200);
      expect((await upload('mock-key-other-org')).status).toBe(200);
    }
    const clockBefore = await (await target.request('/__mock/clock', {})).json();
    const reset = await target.request('/__mock/rate-limit/reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: 'mock-key-other-env' }),
    });
    expect([reset.status, (await reset.json()).data]).toEqual([200, { reset: 'user-1' }]);
    expect((await target.request('/__mock/clock', {}).then((r) => r.json())).data).toEqual(clockBefore.data);
    expect((await upload('mock-key')).status).toBe(200);
    expect((await upload('mock-key-other-org')).status).toBe(429);
    const everyone = await target.request('/__mock/rate-limit/reset', { method: 'POST' });
    expect(everyone.status).toBe(200);
    expect((await upload('mock-key-other-org')).status).toBe(200);
    const unknown = await target.request('/__mock/rate-limit/reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: 'nobody' }),
    });
    expect([unknown.status, (await unknown.json()).error_code]).toEqual([400, errors.invalidRequest.code]);
  });

  it('does not count failed uploads', async () => {
    for (let i = 0; i < 5; i++) expect((await upload('mock-key', 'a.flac')).status).toBe(400);
    const statuses = [];
    for (let i = 0; i < limits.uploadRatePerHour.value; i++) statuses.push((await upload('mock-key')).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('stays exact under 40 concurrent uploads: 30 succeed, 10 are refused', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => upload('mock-key').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(limits.uploadRatePerHour.value);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - limits.uploadRatePerHour.value);
  });
});

describe('voice save under concurrency', () => {
  it('20 concurrent saves of one id: exactly one wins, the others get 10018', async () => {
    const target = await inProcessTarget();
    const uploaded = await envelope(
      await target.request('/v1/files/upload', uploadInit(referenceWav(), 'r.wav')),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        target.request('/v1/voice/save', json({ voice_id: 'Twin', ref_audio: uploaded.data.object_key })),
      ),
    );
    const bodies = await Promise.all(answers.map((res) => envelope(res, 'saveVoice')));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    expect(bodies.filter((b) => b.error_code === errors.voiceIdTaken.code)).toHaveLength(19);
    const ledger = await envelope(await target.request('/__mock/ledger'));
    expect(ledger.data.accounts['account-1'].freeUsesConsumed).toBe(1);
    await target.close();
  });
});
