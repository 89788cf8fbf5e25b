import { describe, expect, it } from 'vitest';
import { errors } from '../../../openapi/contract.js';
import { BytesAnswer, StreamAnswer } from '../answer/answer.js';
import { isFailure } from '../answer/envelope.js';
import { applyFaults, parsePreferences, preferredResponse } from './scenario.js';

describe('parsePreferences', () => {
  it.each([
    [null, { faults: [] }],
    ['code=503', { code: 503, faults: [] }],
    ['code="429", respond-async', { code: 429, faults: [] }],
    ['fault=cut-after-bytes=1000', { faults: [{ kind: 'cut-after-bytes', bytes: 1000 }] }],
    ['fault=reset; fault=slow-chunks=20', { faults: [{ kind: 'reset' }, { kind: 'slow-chunks', ms: 20 }] }],
    ['latency=250, pace=realtime', { latencyMs: 250, realtime: true, faults: [] }],
  ])('%s → %j', (header, expected) => {
    expect(parsePreferences(header)).toEqual(expected);
  });

  it.each(['code=abc', 'fault=explode', 'fault=cut-after-bytes', 'fault=reset=1', 'latency=-5'])(
    'refuses %s',
    (header) => {
      expect(isFailure(parsePreferences(header))).toBe(true);
    },
  );
});

describe('preferredResponse', () => {
  it('runs the operation for a success code', () => {
    expect(preferredResponse('listVoices', 200)).toBeUndefined();
  });

  it.each([
    ['uploadFile', 503, errors.storageUnavailable.code],
    ['uploadFile', 504, errors.uploadTimeout.code],
    ['saveVoice', 409, errors.voiceIdTaken.code],
    ['deleteVoice', 403, errors.systemVoiceNotDeletable.code],
  ] as const)('%s code=%i answers error_code %i', async (operation, status, code) => {
    const response = (preferredResponse(operation, status) as BytesAnswer).toResponse();
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error_code: number }).error_code).toBe(code);
  });

  it('names the available codes for an undocumented one', () => {
    const failure = preferredResponse('listVoices', 503);
    expect(isFailure(failure) && failure.message).toContain('available: 200, 400, 401, 500');
  });
});

describe('applyFaults', () => {
  const body = () => new BytesAnswer(200, new Uint8Array(100).fill(7), { 'Content-Type': 'audio/wav' });

  it('cuts the body after N bytes with an error, keeping the full length in the headers', async () => {
    const answer = applyFaults(body(), [{ kind: 'cut-after-bytes', bytes: 40 }], async () => {});
    const response = answer.toResponse();
    expect(response.headers.get('content-length')).toBe('100');
    const reader = response.body?.getReader();
    expect((await reader?.read())?.value?.byteLength).toBe(40);
    await expect(reader?.read()).rejects.toThrow('cut after 40 bytes');
  });

  it('leaves a body shorter than N untouched', async () => {
    const res = applyFaults(body(), [{ kind: 'cut-after-bytes', bytes: 1000 }], async () => {});
    expect((await res.toResponse().arrayBuffer()).byteLength).toBe(100);
  });

  it('waits before every chunk of a stream but the first', async () => {
    const chunks = [new Uint8Array(3), new Uint8Array(4), new Uint8Array(5)];
    const stream = new StreamAnswer(200, { pull: () => chunks.shift(), cancel() {} }, {});
    const waits: number[] = [];
    const slowed = applyFaults(stream, [{ kind: 'slow-chunks', ms: 25 }], async (ms) => void waits.push(ms));
    expect((await slowed.toResponse().arrayBuffer()).byteLength).toBe(12);
    expect(waits).toEqual([25, 25, 25]);
  });

  it('waits once, before its end, on a body of known length (as on bytes in memory)', async () => {
    const chunks = [new Uint8Array(3), new Uint8Array(4), new Uint8Array(5)];
    const complete = new StreamAnswer(
      200,
      { pull: () => chunks.shift(), cancel() {} },
      { 'Content-Length': '12' },
    );
    const waits: number[] = [];
    const slowed = applyFaults(
      complete,
      [{ kind: 'slow-chunks', ms: 25 }],
      async (ms) => void waits.push(ms),
    );
    const response = slowed.toResponse();
    expect(response.headers.get('content-length')).toBe('12');
    expect((await response.arrayBuffer()).byteLength).toBe(12);
    expect(waits).toEqual([25]);
    const inMemory = applyFaults(
      body(),
      [{ kind: 'slow-chunks', ms: 25 }],
      async (ms) => void waits.push(ms),
    );
    expect((await inMemory.toResponse().arrayBuffer()).byteLength).toBe(100);
    expect(waits).toEqual([25, 25]);
  });
});

describe('Prefer waits are capped', () => {
  it.each(['latency=999999999', 'latency=60001', 'fault=slow-chunks=60001'])(
    'refuses %s with a message naming the cap',
    (header) => {
      const parsed = parsePreferences(header);
      expect(isFailure(parsed) && parsed.message).toMatch(/at most 60000 ms/);
    },
  );

  it.each(['latency=60000', 'fault=slow-chunks=60000'])('accepts %s', (header) => {
    expect(isFailure(parsePreferences(header))).toBe(false);
  });
});
