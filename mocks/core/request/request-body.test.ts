import { describe, expect, it, vi } from 'vitest';
import { createMockService, type MockService } from '../service.js';
import { drain, jsonBodyCap, maxJsonDepth, nestsDeeperThan } from './request-body.js';

const key = { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' };
const quiet = { logger: { error: () => {} } };

const post = (service: MockService, path: string, body: string, headers: Record<string, string> = key) =>
  service.fetch(new Request(`http://mock.test${path}`, { method: 'POST', headers, body }));

const refusal = async (res: Response) => ({
  status: res.status,
  ...((await res.json()) as { error_code: number; error_message: string }),
});

/** A text of `n` astral code points, each written as JSON's longest escape (`\ud83d\ude00`, 12 bytes). */
const escapedAstral = (n: number) => '\\ud83d\\ude00'.repeat(n);

describe('the JSON body cap follows the configured text length', () => {
  it('is 12 bytes a code point plus 16 KiB: 136,384 bytes at the default 10,000 characters', () => {
    expect(jsonBodyCap(10_000)).toBe(136_384);
    expect(jsonBodyCap(10_000)).toBeLessThan(1_048_576);
  });

  it('reads the largest valid body whole, even with a text of the longest escapes', async () => {
    const service = createMockService({ ...quiet, config: { maxTextLength: 300 } });
    // One code point too many: judged by the operation (the body was read), not refused for its size.
    const body = `{"generate_text":"${escapedAstral(301)}"}`;
    expect(body.length).toBeLessThan(jsonBodyCap(300));
    const res = await refusal(await post(service, '/v1/text-to-speech', body));
    expect([res.status, res.error_code]).toEqual([400, 10001]);
    expect(res.error_message).toBe('generate_text is 301 characters; at most 300 are allowed');
  });

  it('a larger configured text length raises it: 20,001 escaped code points are read, not refused for size', async () => {
    const service = createMockService({ ...quiet, config: { maxTextLength: 20_000 } });
    const body = `{"generate_text":"${escapedAstral(20_001)}"}`;
    expect(body.length).toBeGreaterThan(jsonBodyCap(10_000));
    const res = await refusal(await post(service, '/v1/text-to-speech', body));
    expect(res.error_message).toBe('generate_text is 20001 characters; at most 20000 are allowed');
  });

  it('refuses a body past the cap with 400/10001, by its Content-Length or once the cap has come', async () => {
    const service = createMockService(quiet);
    const body = `{"generate_text":"${'a'.repeat(jsonBodyCap(10_000))}"}`;
    const declared = await refusal(await post(service, '/v1/text-to-speech', body));
    expect(declared).toMatchObject({ status: 400, error_code: 10001 });
    expect(declared.error_message).toBe('request body is larger than 136384 bytes');
    // A streamed body has no Content-Length: it is read up to the cap, then refused.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const streamed = await service.fetch(
      new Request('http://mock.test/v1/text-to-speech', {
        method: 'POST',
        headers: key,
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect((await refusal(streamed)).error_message).toBe('request body is larger than 136384 bytes');
    expect(service.state.ledger.snapshot()).toEqual({});
  });
});

/** `{"generate_text":"hello world","x":[[[…]]]}` nested `depth` levels deep in x. */
const deepBody = (depth: number) =>
  `{"generate_text":"hello world","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('a body nested too deep (red-team D3)', () => {
  it('counts nesting outside strings only', () => {
    expect(nestsDeeperThan('{"a":[[1]]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[[[1]]]}', 3)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}\\"["}`, 3)).toBe(false);
    expect(nestsDeeperThan(deepBody(maxJsonDepth - 1), maxJsonDepth)).toBe(false);
    expect(nestsDeeperThan(deepBody(maxJsonDepth), maxJsonDepth)).toBe(true);
  });

  it.each(['/v1/text-to-speech', '/v1/text-to-speech/stream'])(
    '%s 5,000 levels deep is 400/10001 before any charge, and logged',
    async (path) => {
      const service = createMockService(quiet);
      const res = await refusal(await post(service, path, deepBody(5000)));
      expect([res.status, res.error_code]).toEqual([400, 10001]);
      expect(res.error_message).toBe('request body nests deeper than 32 levels of objects and arrays');
      expect(service.state.ledger.snapshot()).toEqual({});
      expect(service.state.requests.list().map((e) => [e.path, e.status])).toEqual([[path, 400]]);
    },
  );

  it('a body as deep as the limit allows is still answered, billed and logged', async () => {
    const service = createMockService(quiet);
    const res = await post(service, '/v1/text-to-speech', deepBody(maxJsonDepth - 1));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const [entry] = service.state.requests.list();
    expect(entry?.status).toBe(200);
    // The replay keeps the synthesis fields only.
    expect(entry?.body).toBe('{"generate_text":"hello world"}');
  });
});

describe('logging never costs an answer', () => {
  it('a request log that throws still lets the answer out, and the failure is reported', async () => {
    const errors: string[] = [];
    const service = createMockService({ logger: { error: (message) => errors.push(message) } });
    vi.spyOn(service.state.requests, 'add').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const res = await post(service, '/v1/text-to-speech', '{"generate_text":"hello world"}');
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(44);
    expect(errors).toEqual(['the request log could not record POST /v1/text-to-speech']);
  });

  it('the log keeps a body no JSON.stringify can write as its known fields only', () => {
    const service = createMockService(quiet);
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const hostile = {
      generate_text: 'hi',
      voice_id: 'narrator',
      x: deep,
      toJSON: () => {
        throw new Error('no');
      },
    };
    const entry = service.state.requests.add(
      {
        at: 0,
        method: 'POST',
        path: '/v1/text-to-speech',
        key: null,
        status: 200,
        operationId: 'synthesizeSpeech',
        durationMs: 1,
        errorCode: null,
        errorMessage: null,
      },
      undefined,
      { key: 'mock-key', body: hostile },
    );
    expect(entry.body).toBe('{"generate_text":"hi","voice_id":"narrator"}');
  });
});

describe('a body the adapter read whole (CoreRequest.bodyBytes)', () => {
  /** A request as the Node server hands in a small body: its bytes, and a `body` stream counted when asked for. */
  const readWhole = (json: string, headers: Record<string, string> = key) => {
    const asked = { streams: 0 };
    const bytes = new TextEncoder().encode(json);
    const request = {
      method: 'POST',
      url: 'http://mock.test/v1/text-to-speech/stream',
      headers: new Headers(headers),
      bodyBytes: bytes,
      signal: new AbortController().signal,
      get body() {
        asked.streams++;
        return new Response(bytes).body;
      },
    };
    return { request, asked };
  };

  it('is answered from its bytes: the stream is never made', async () => {
    const service = createMockService(quiet);
    const { request, asked } = readWhole('{"generate_text":"Hello from bytes."}');
    const answer = await service.answer(request);
    expect(answer.status).toBe(200);
    expect(asked.streams).toBe(0);
    expect(service.state.requests.list().at(-1)?.body).toBe('{"generate_text":"Hello from bytes."}');
  });

  it('is refused as a streamed body is: malformed JSON, past the cap, another Content-Type', async () => {
    const service = createMockService({ ...quiet, config: { maxTextLength: 5 } });
    const status = async (json: string, headers?: Record<string, string>) =>
      (await service.answer(readWhole(json, headers).request)).status;
    expect(await status('{"generate_text":')).toBe(400);
    expect(await status(`{"generate_text":"${'a'.repeat(jsonBodyCap(5))}"}`)).toBe(400);
    expect(await status('{"generate_text":"hi"}', { ...key, 'Content-Type': 'text/plain' })).toBe(400);
    const messages = service.state.requests.list().filter((e) => e.path.startsWith('/v1/text-to-speech'));
    expect(messages.map((e) => e.errorMessage)).toEqual([
      expect.stringMatching(/^request body is not valid JSON/),
      `request body is larger than ${jsonBodyCap(5)} bytes`,
      'Content-Type must be application/json, got "text/plain"',
    ]);
  });
});

describe('drain', () => {
  const bodyOf = (chunks: number, failAt = -1) => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === failAt) controller.error(new Error('the client went away'));
        else if (sent++ < chunks) controller.enqueue(new Uint8Array(1024));
        else controller.close();
      },
    });
  };

  // A reader released after the end rejects a promise, which left a Node process slower at answering
  // HTTP from then on (letGo): a body drained to its end keeps its reader.
  it('reads a body to its end and keeps the finished reader; a body that errors is let go', async () => {
    const whole = bodyOf(5);
    await drain(whole);
    expect(whole.locked).toBe(true);
    await drain(whole); // a second drain of the same body returns at once

    const cut = bodyOf(5, 2);
    await drain(cut);
    expect(cut.locked).toBe(false);
  });
});
