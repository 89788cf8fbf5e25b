import { describe, expect, it } from 'vitest';
import { ok } from '../answer/envelope.js';
import { type HeaderSource, keepExchange } from './exchange.js';
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
    ['mock-key', 'm…y'],
    ['mock-key-staging', 'mo…ng'],
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

describe('the journal of repeated requests', () => {
  /** Headers as the Node adapter hands them: a list of lines, compared line by line. */
  const lines = (...raw: string[]): HeaderSource => ({
    get: (name) => raw[raw.findIndex((n, i) => i % 2 === 0 && n.toLowerCase() === name) + 1] ?? null,
    forEach: (callback) => {
      for (let i = 0; i < raw.length; i += 2)
        callback(raw[i + 1] as string, (raw[i] as string).toLowerCase());
    },
    sameAs(other) {
      const theirs: string[] = [];
      other.forEach?.((value, name) => {
        theirs.push(name, value);
      });
      return theirs.join('\n') === raw.map((v, i) => (i % 2 === 0 ? v.toLowerCase() : v)).join('\n');
    },
  });
  const list = 'http://mock.test/v1/voice/list';
  const page = ok({ list: [] });
  const request = (url: string, headers: HeaderSource) => ({ method: 'GET', url, headers });
  const logged = (log: RequestLog, url: string, headers: HeaderSource, answer = page, received?: unknown) =>
    log.add(entry(1), undefined, undefined, keepExchange(request(url, headers), answer, received));
  const exchanges = (log: RequestLog) => log.items().map((item) => item.exchange);

  it('keeps one exchange for a run of the same request and answer, and an entry each', () => {
    const log = new RequestLog(10);
    for (let n = 0; n < 3; n++) logged(log, list, lines('Host', 'mock.test', 'X-API-Key', 'mock-key'));
    const [first, second, third] = exchanges(log);
    expect(log.list().map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it.each([
    ['another URL', `${list}?page_size=2`, lines('X-API-Key', 'mock-key'), page],
    ['other headers', list, lines('X-API-Key', 'mock-key', 'Prefer', 'code=200'), page],
    ['another answer of the same bytes', list, lines('X-API-Key', 'mock-key'), ok({ list: [] })],
  ])('keeps an exchange of its own for %s, each showing what it was', (_, url, headers, answer) => {
    const log = new RequestLog(10);
    logged(log, list, lines('X-API-Key', 'mock-key'));
    logged(log, url, headers, answer);
    const [first, second] = exchanges(log);
    expect(second).not.toBe(first);
    expect(second?.url).toBe(url);
    expect(second?.requestHeaders).toBe(headers);
    expect(second?.answerHeaders).toBe(answer.headers);
  });

  it('never shares the exchange of a request with a body, nor headers that cannot say they are the same', () => {
    const log = new RequestLog(10);
    const same = lines('X-API-Key', 'mock-key');
    logged(log, list, same, page, { voice_id: 'a' });
    logged(log, list, same, page, { voice_id: 'b' });
    const fetchHeaders = new Headers({ 'X-API-Key': 'mock-key' });
    logged(log, list, fetchHeaders);
    logged(log, list, new Headers({ 'X-API-Key': 'mock-key' }));
    const [a, b, c, d] = exchanges(log);
    expect(b).not.toBe(a);
    expect(b?.requestBody?.text).toBe('{"voice_id":"b"}');
    expect(d).not.toBe(c);
  });

  it('shares across the ring once it is full, and starts afresh after clear', () => {
    const log = new RequestLog(2);
    const same = lines('X-API-Key', 'mock-key');
    for (let n = 0; n < 5; n++) logged(log, list, same);
    const [a, b] = exchanges(log);
    expect(b).toBe(a);
    log.clear();
    logged(log, list, same);
    expect(exchanges(log)[0]).not.toBe(a);
  });
});
