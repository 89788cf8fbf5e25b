import { describe, expect, it } from 'vitest';
import {
  logMessageMaxChars,
  maskKey,
  type NewRequestLogEntry,
  RequestLog,
  type RequestLogEntry,
} from './request-log.js';

const entry = (at: number): NewRequestLogEntry => ({
  at,
  method: 'GET',
  path: '/v1/voice/list',
  key: 'mock…',
  status: 200,
  operationId: 'listVoices',
  durationMs: 1,
  errorCode: null,
  errorMessage: null,
});

describe('RequestLog', () => {
  it.each([
    [3, 2, [1, 2]],
    [3, 3, [1, 2, 3]],
    [3, 4, [2, 3, 4]],
    [3, 8, [6, 7, 8]],
    [1, 5, [5]],
    [0, 4, []],
  ])('capacity %i after %i requests keeps %j, oldest first', (capacity, added, expected) => {
    const log = new RequestLog(capacity);
    for (let at = 1; at <= added; at++) log.add(entry(at));
    expect(log.list().map((e) => e.at)).toEqual(expected);
  });

  it('starts over after clear, and hands out copies', () => {
    const log = new RequestLog(2);
    for (let at = 1; at <= 3; at++) log.add(entry(at));
    log.clear();
    log.add(entry(9));
    const listed = log.list();
    (listed[0] as RequestLogEntry).status = 500;
    const unjudged = { ok: true, problems: [], checked: 'nothing' };
    expect(log.list()).toEqual([
      {
        ...entry(9),
        seq: 4,
        stream: null,
        body: null,
        query: '',
        forced: [],
        warnings: [],
        verdict: unjudged,
      },
    ]);
    expect(log.position).toEqual({ lastSeq: 4, clears: 1, size: 1, capacity: 2 });
  });

  it('numbers requests for reading on after N, and never reuses a number', () => {
    const log = new RequestLog(3);
    for (let at = 1; at <= 5; at++) log.add(entry(at));
    expect(log.list(3).map((e) => e.seq)).toEqual([4, 5]);
    expect(log.list(5)).toEqual([]);
    expect(log.list(0).map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('adds the timing of a streamed body to its entry, and lists a copy of it', () => {
    const log = new RequestLog(2);
    const answer = {};
    log.add(entry(1), answer);
    log.measured({}, { ttfbMs: 1, chunks: 1, bytes: 1, durationMs: 1, complete: true });
    expect(log.list()[0]?.stream).toBeNull();
    log.measured(answer, { ttfbMs: 3, chunks: 4, bytes: 100, durationMs: 9, complete: true });
    const listed = log.list()[0] as RequestLogEntry;
    expect(listed.stream).toEqual({ ttfbMs: 3, chunks: 4, bytes: 100, durationMs: 9, complete: true });
    (listed.stream as { chunks: number }).chunks = 0;
    expect(log.list()[0]?.stream?.chunks).toBe(4);
  });
});

describe('RequestLog bounds', () => {
  it('keeps the first 1,024 characters of an error message (one may echo a 1 MiB input)', () => {
    const log = new RequestLog(2);
    const long = `voice_id ${'a'.repeat(900_000)} is unknown`;
    log.add({ ...entry(1), status: 400, errorCode: 10001, errorMessage: long });
    log.add({ ...entry(2), status: 400, errorCode: 10001, errorMessage: 'short' });
    const [first, second] = log.list();
    expect(first?.errorMessage).toBe(`${long.slice(0, logMessageMaxChars - 1)}…`);
    expect(first?.errorMessage).toHaveLength(logMessageMaxChars);
    expect(second?.errorMessage).toBe('short');
  });
});

describe('maskKey', () => {
  it.each([
    [null, null],
    ['mock-key', 'mo…ey'],
    ['mock-key-staging', 'mock…ging'],
    ['abcdefg', '…'],
    ['', '…'],
  ])('masks %j as %j', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });
});

describe('RequestLog replays', () => {
  it('keeps the key and body of a synthesis request for a replay, lists the body but never the key', () => {
    const log = new RequestLog(2);
    log.add(entry(1), undefined, { key: 'mock-key-secret', body: { generate_text: 'Hi.' } });
    log.add(entry(2));
    expect(log.list().map((e) => e.body)).toEqual(['{"generate_text":"Hi."}', null]);
    expect(JSON.stringify(log.list())).not.toContain('mock-key-secret');
    expect(log.replay(1)).toEqual({
      method: 'GET',
      path: '/v1/voice/list',
      key: 'mock-key-secret',
      body: '{"generate_text":"Hi."}',
    });
    expect(log.replay(2)).toBeUndefined();
    log.add(entry(3));
    expect(log.replay(1)).toBeUndefined(); // left the ring
  });

  it('keeps no body over 4,096 characters', () => {
    const log = new RequestLog(2);
    log.add(entry(1), undefined, { key: 'k', body: { generate_text: 'a'.repeat(5000) } });
    expect([log.list()[0]?.body, log.replay(1)]).toEqual([null, undefined]);
  });

  it('keeps a body whose JSON is 4,096 characters, and none a character longer', () => {
    const log = new RequestLog(3);
    // {"generate_text":"…"} is 20 characters around the text.
    const fits = { generate_text: 'a'.repeat(4076) };
    const over = { generate_text: 'a'.repeat(4077) };
    const escaped = { generate_text: '"'.repeat(2039) }; // 2,039 characters, 4,098 once escaped
    log.add(entry(1), undefined, { key: 'k', body: fits });
    log.add(entry(2), undefined, { key: 'k', body: over });
    log.add(entry(3), undefined, { key: 'k', body: escaped });
    expect(log.list().map((e) => e.body?.length ?? null)).toEqual([4096, null, null]);
    expect(log.replay(1)?.body).toBe(JSON.stringify(fits));
  });
});
