import { describe, expect, it } from 'vitest';
import { createMockService } from '../service.js';

const stream = (text: string) =>
  new Request('http://mock.test/v1/text-to-speech/stream', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': 'mock-key' },
    body: JSON.stringify({ generate_text: text }),
  });

describe('service.warm(): a stream nobody hears, before the first real one', () => {
  it('changes no state: the ledger, the request log and the snapshot stay as they were', async () => {
    const service = createMockService({ seed: 7, logger: { error: () => {} } });
    const before = JSON.stringify(service.snapshot());
    const logged = service.state.requests.position;
    await service.warm();
    expect(JSON.stringify(service.snapshot())).toBe(before);
    expect(service.state.requests.position).toEqual(logged);
    await service.close();
  });

  it('changes no byte of an answer, and its memos are the engine’s own (emptied by reset)', async () => {
    const text = 'Hello, this warms the voice up: the same words, heard for real.';
    const cold = createMockService({ seed: 7, logger: { error: () => {} } });
    const warm = createMockService({ seed: 7, logger: { error: () => {} } });
    await warm.warm();
    const engine = warm.state.caches.engine as unknown as { size: number };
    expect(engine.size).toBeGreaterThan(0);
    const heard = async (service: typeof cold) =>
      new Uint8Array(await (await service.fetch(stream(text))).arrayBuffer());
    const [a, b] = [await heard(cold), await heard(warm)];
    expect(a.byteLength).toBeGreaterThan(10_000);
    expect(Buffer.compare(a, b)).toBe(0);
    await warm.reset();
    expect(engine.size).toBe(0);
    await cold.close();
    await warm.close();
  });
});

describe('warmUp(): long enough to compile the parse and the size count, never in one block', () => {
  it('says several long texts, each a request of its own, with a turn of the event loop between', async () => {
    const { warmUp } = await import('./warm-up.js');
    const texts: string[] = [];
    const turnsBefore: number[] = [];
    let turns = 0;
    const tick = () => {
      turns++;
    };
    const spare = {
      async answer(request: { body: ReadableStream<Uint8Array> | null }) {
        const body = await new Response(request.body).json();
        texts.push(body.generate_text);
        turnsBefore.push(turns);
        // A macrotask queued now runs before the next pass only if the warm-up yields between them.
        setTimeout(tick, 0);
        return {};
      },
    };
    await warmUp(spare, 'mock-key');
    // One pass of 600 characters left the per-character loops unoptimized for a real 5,000-character
    // text, and six of ~2,000 left a fresh mock's first stream ~2 ms behind a warm one.
    expect(texts.length).toBeGreaterThanOrEqual(10);
    expect(new Set(texts).size).toBe(texts.length);
    // The first is short (a readiness probe may wait for it); the others are as long as client texts.
    expect(texts[0]?.length).toBeLessThan(1000);
    expect(texts.slice(1).every((text) => text.length >= 5000)).toBe(true);
    expect(turnsBefore).toEqual(texts.map((_, i) => i));
  });
});

describe('warmUp() under a small maxTextLength', () => {
  it('cuts every text to the limit, so the spare service answers each pass instead of refusing it', async () => {
    const { warmUp } = await import('./warm-up.js');
    const lengths: number[] = [];
    const spare = {
      async answer(request: { body: ReadableStream<Uint8Array> | null }) {
        lengths.push((await new Response(request.body).json()).generate_text.length);
        return {};
      },
    };
    await warmUp(spare, 'mock-key', 300);
    expect(lengths.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...lengths)).toBe(300);
  });
});
