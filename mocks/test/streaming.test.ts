import { describe, expect, it, vi } from 'vitest';
import * as audio from '../../audio/index.js';
import type { SynthesisRequest } from '../../audio/types.js';
import type { AudioEngine } from '../core/context.js';
import {
  inProcessTarget,
  json,
  msw2Target,
  mswTarget,
  nodeTarget,
  sameBytes,
  type Target,
} from './helpers.js';

/**
 * The real audio engine, observed for the test's own text: how many chunks were rendered, and whether
 * the generator was closed. Only that text: the Node server's warm-up synthesizes through the same
 * engine, and it waits while a real request is answered, so its passes may come after the test's.
 */
function observedEngine() {
  const seen = { pulled: 0, closed: false, total: 0 };
  const engine: AudioEngine = {
    ...audio,
    synthesize(request: SynthesisRequest) {
      const stream = audio.synthesize(request);
      if (request.text !== longText) return stream;
      seen.total = Math.ceil(stream.durationSeconds / 0.1);
      return {
        ...stream,
        *chunks() {
          try {
            for (const chunk of stream.chunks()) {
              seen.pulled += 1;
              yield chunk;
            }
          } finally {
            seen.closed = true;
          }
        },
      };
    },
  };
  return { engine, seen };
}

const longText = 'A long story that goes on and on, told slowly. '.repeat(120);
const streamInit = (prefer?: string) =>
  json({ generate_text: longText, audio_format: 'pcm' }, prefer ? { Prefer: prefer } : {});

describe('an answer the client abandons stops rendering', () => {
  it.each([
    ['in-process', 'stream', inProcessTarget],
    ['node', 'stream', nodeTarget],
    ['in-process', 'complete', inProcessTarget],
    ['node', 'complete', nodeTarget],
  ] as const)('%s, %s', async (_name, mode, make) => {
    const { engine, seen } = observedEngine();
    const target = await make({ audio: engine });
    const abort = new AbortController();
    const path = mode === 'stream' ? '/v1/text-to-speech/stream' : '/v1/text-to-speech';
    const res = await target.request(path, { ...streamInit(), signal: abort.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.read();
    if (target.name === 'node') abort.abort();
    else await reader.cancel();
    await vi.waitFor(() => expect(seen.closed).toBe(true));
    expect(seen.total).toBeGreaterThan(2000);
    // In process nothing is rendered ahead of the reader; over HTTP, only what the socket buffers hold.
    if (target.name === 'node') expect(seen.pulled).toBeLessThan(seen.total / 2);
    else expect(seen.pulled).toBeLessThanOrEqual(3);
    await target.close();
  });
});

describe('faults asked for with Prefer', () => {
  it.each([
    ['in-process', inProcessTarget],
    ['msw 3', mswTarget],
    ['msw 2', msw2Target],
    ['node', nodeTarget],
  ] as const)(
    '%s: cut-after-bytes ends the body after exactly N bytes, with an error (MSW 3: a clean end; a complete answer keeps its whole Content-Length)',
    async (_name, make) => {
      const target: Target = await make();
      const whole = await target.request('/v1/text-to-speech', streamInit());
      const length = String((await whole.arrayBuffer()).byteLength);
      for (const path of ['/v1/text-to-speech/stream', '/v1/text-to-speech']) {
        const res = await target.request(path, streamInit('fault=cut-after-bytes=12345'));
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        let received = 0;
        const outcome = await (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return 'ended cleanly';
            received += value.byteLength;
          }
        })().catch(() => 'errored');
        const announced = res.headers.get('content-length');
        expect([path, outcome, received, announced]).toEqual([
          path,
          // MSW 3 hands the client a mocked body that errors part-way as a clean end (the bytes stop at
          // N all the same), unless a Content-Length says more was due; every other adapter, MSW 2
          // included, passes the error on.
          target.name === 'msw 3' && path.endsWith('/stream') ? 'ended cleanly' : 'errored',
          12345,
          path.endsWith('/stream') ? null : length,
        ]);
      }
      await target.close();
    },
  );

  it.each([
    ['msw 3', mswTarget],
    ['msw 2', msw2Target],
    ['node', nodeTarget],
  ] as const)('%s: reset fails the request like a dropped connection', async (_name, make) => {
    const target = await make();
    await expect(
      target.request('/v1/voice/list', { headers: { 'X-API-Key': 'mock-key', Prefer: 'fault=reset' } }),
    ).rejects.toThrow();
    expect((await target.request('/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } })).status).toBe(
      200,
    );
    await target.close();
  });

  it('in-process: reset is a network-error Response', async () => {
    const target = await inProcessTarget();
    const res = await target.request('/v1/voice/list', {
      headers: { 'X-API-Key': 'mock-key', Prefer: 'fault=reset' },
    });
    expect(res.type).toBe('error');
  });

  it.each([
    ['fault=slow-chunks=200', 200, 'between chunks'],
    ['latency=300', 300, 'before the first chunk only'],
    ['pace=realtime', 100, 'between chunks (chunkMs)'],
  ] as [string, number, string][])('%s waits %i ms %s, and the bytes stay the same', async (prefer, ms) => {
    const waits: number[] = [];
    const sleep = async (wait: number) => {
      // sleep(0) is a yield to the event loop between rendered chunks, not a wait.
      if (wait > 0) waits.push(wait);
    };
    const target = await inProcessTarget({ sleep });
    const body = { generate_text: 'Short and sweet.', audio_format: 'pcm' };
    const plain = new Uint8Array(
      await (await target.request('/v1/text-to-speech/stream', json(body))).arrayBuffer(),
    );
    expect(waits).toEqual([]);
    const paced = await target.request('/v1/text-to-speech/stream', json(body, { Prefer: prefer }));
    expect(Buffer.compare(new Uint8Array(await paced.arrayBuffer()), plain)).toBe(0);
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set([ms]));
    if (prefer.startsWith('latency')) expect(waits).toHaveLength(1);
  });

  it.each([
    ['fault=slow-chunks=200', [200]],
    ['latency=300', [300]],
    ['pace=realtime', []],
  ] as [string, number[]][])(
    'a complete answer (unpaced, with its length): %s waits %j, as when it was one piece in memory',
    async (prefer, expected) => {
      const waits: number[] = [];
      const target = await inProcessTarget({
        sleep: async (wait) => {
          if (wait > 0) waits.push(wait);
        },
      });
      const body = {
        generate_text: 'Short and sweet, and long enough for some chunks.',
        audio_format: 'pcm',
      };
      const plain = new Uint8Array(
        await (await target.request('/v1/text-to-speech', json(body))).arrayBuffer(),
      );
      expect(plain.byteLength).toBeGreaterThan(10 * 4800);
      // Served from the complete-audio cache now: a fresh state renders it again.
      await target.service.reset();
      const res = await target.request('/v1/text-to-speech', json(body, { Prefer: prefer }));
      expect(sameBytes(new Uint8Array(await res.arrayBuffer()), plain)).toBe(true);
      expect(waits).toEqual(expected);
    },
  );

  it('an unknown fault is a loud 400', async () => {
    const target = await inProcessTarget();
    const res = await target.request('/v1/voice/list', {
      headers: { 'X-API-Key': 'mock-key', Prefer: 'fault=explode' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_message: string }).error_message).toContain('known faults');
  });
});

describe('a long mp3 never blocks other requests (lamejs encodes at ~20× real time)', () => {
  const story = (seed: string) =>
    `${seed} A long story that goes on and on, told slowly. `.repeat(70).slice(0, 3000);
  const mp3 = (text: string) => json({ generate_text: text, audio_format: 'mp3' });
  const list = (target: Target) =>
    target.request('/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } }).then((res) => res.status);

  it('node: a list answers while a 3,000-character mp3 stream is still being produced', async () => {
    const target = await nodeTarget();
    const abort = new AbortController();
    const res = await target.request('/v1/text-to-speech/stream', {
      ...mp3(story('Stream.')),
      signal: abort.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    let ended = false;
    const drained = (async () => {
      while (!(await reader.read()).done) {
        // read as fast as the mock sends
      }
      ended = true;
    })().catch(() => {});
    expect(await list(target)).toBe(200);
    expect(ended).toBe(false);
    abort.abort();
    await drained;
    await target.close();
  });

  it('node: a list answers while a 3,000-character complete mp3 is being rendered', async () => {
    const target = await nodeTarget();
    const abort = new AbortController();
    let answered = false;
    const complete = target
      .request('/v1/text-to-speech', { ...mp3(story('Complete.')), signal: abort.signal })
      .then((res) => res.arrayBuffer())
      .then(() => {
        answered = true;
      })
      .catch(() => {});
    // The synthesis request is on its way before the list is sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await list(target)).toBe(200);
    expect(answered).toBe(false);
    abort.abort();
    await complete;
    await target.close();
  });

  it('in-process: stream and complete give the same mp3 bytes, and the complete one is rendered with yields', async () => {
    let yields = 0;
    const target = await inProcessTarget({
      sleep: async () => {
        yields += 1;
      },
    });
    const text = 'Short and sweet, as mp3.';
    const streamed = new Uint8Array(
      await (await target.request('/v1/text-to-speech/stream', mp3(text))).arrayBuffer(),
    );
    const before = yields;
    const complete = await target.request('/v1/text-to-speech', mp3(text));
    expect(complete.headers.get('content-length')).toBe(String(streamed.byteLength));
    expect(Buffer.compare(new Uint8Array(await complete.arrayBuffer()), streamed)).toBe(0);
    expect(yields).toBeGreaterThan(before);
  });

  it('in-process: an mp3 stream gives the same bytes alone or with others at once, its encoder its own or a primed encoder', async () => {
    const target = await inProcessTarget();
    // ~3 s of audio, streamed alone, again, then three at once: a stream may take a primed encoder or make its own.
    const text = 'A story told at an even pace, one word after another, then a pause.';
    const stream = async () =>
      new Uint8Array(await (await target.request('/v1/text-to-speech/stream', mp3(text))).arrayBuffer());
    const alone = await stream();
    const again = await stream();
    const atOnce = await Promise.all([stream(), stream(), stream()]);
    expect(alone.byteLength).toBeGreaterThan(20_000);
    for (const bytes of [again, ...atOnce]) expect(Buffer.compare(bytes, alone)).toBe(0);
  });
});
