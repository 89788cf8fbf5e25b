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
    const throwaway = {
      async answer(request: { body: ReadableStream<Uint8Array> | null }) {
        const body = await new Response(request.body).json();
        texts.push(body.generate_text);
        turnsBefore.push(turns);
        // A macrotask queued now runs before the next pass only if the warm-up yields between them.
        setTimeout(tick, 0);
        return {};
      },
    };
    await warmUp(throwaway, 'mock-key');
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
  it('cuts every text to the limit, so the throwaway service answers each pass instead of refusing it', async () => {
    const { warmUp } = await import('./warm-up.js');
    const lengths: number[] = [];
    const throwaway = {
      async answer(request: { body: ReadableStream<Uint8Array> | null }) {
        lengths.push((await new Response(request.body).json()).generate_text.length);
        return {};
      },
    };
    await warmUp(throwaway, 'mock-key', 300);
    expect(lengths.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...lengths)).toBe(300);
  });
});

describe('quietTurns(): the warm-up goes on only when the service is not answering', () => {
  it('resolves after a turn when idle, waits while busy, and rejects once closed', async () => {
    const { quietTurns } = await import('./warm-up.js');
    const sleeps: number[] = [];
    const sleep = (ms: number) => {
      sleeps.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    let busy = false;
    let closed = false;
    const nextTurn = quietTurns(
      sleep,
      () => busy,
      () => closed,
    );
    await nextTurn();
    expect(sleeps).toEqual([0]);
    busy = true;
    let went = false;
    const waiting = nextTurn().then(() => {
      went = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(went).toBe(false);
    busy = false;
    await waiting;
    expect(went).toBe(true);
    // It looked again every millisecond while busy, after the turn's own yield.
    expect(sleeps[1]).toBe(0);
    expect(sleeps.slice(2).length).toBeGreaterThan(0);
    expect(sleeps.slice(2).every((ms) => ms === 1)).toBe(true);
    busy = true;
    const stopped = nextTurn();
    closed = true;
    await expect(stopped).rejects.toThrow(/closed/);
  });
});

describe('service.warm(): real requests go first', () => {
  it('holds its passes while a real answer is under way, goes on after it, and stops when the service closes', async () => {
    const service = createMockService({ seed: 7, logger: { error: () => {} } });
    const engine = service.state.caches.engine as unknown as { size: number };
    // A real stream request whose body has not all come: its answer is under way until the body ends.
    let sendRest: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const json = new TextEncoder().encode(
          JSON.stringify({ generate_text: 'The real one, heard first.' }),
        );
        controller.enqueue(json.subarray(0, 10));
        sendRest = () => {
          controller.enqueue(json.subarray(10));
          controller.close();
        };
      },
    });
    const real = service.answer({
      method: 'POST',
      url: 'http://mock.test/v1/text-to-speech/stream',
      headers: new Headers({ 'Content-Type': 'application/json', 'X-API-Key': 'mock-key' }),
      body,
      signal: new AbortController().signal,
    });
    let warmed = false;
    const warming = service.warm().then(() => {
      warmed = true;
    });
    // The first piece of the first pass goes (it was due before anyone asked), then nothing more: wait
    // until the engine's memos stop growing (however slow the machine), then watch them stay.
    let held = -1;
    for (let i = 0; i < 100 && (held <= 0 || held !== engine.size); i++) {
      held = engine.size;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warmed).toBe(false);
    expect(engine.size).toBe(held);
    sendRest?.();
    const answer = (await real) as { status: number; source?: { cancel(): void } };
    expect(answer.status).toBe(200);
    answer.source?.cancel();
    await warming;
    expect(warmed).toBe(true);
    expect(engine.size).toBeGreaterThan(held);

    // Held again by a request under way, the warm-up ends when the service closes.
    const other = createMockService({ seed: 7, logger: { error: () => {} } });
    const never = other.answer({
      method: 'POST',
      url: 'http://mock.test/v1/text-to-speech/stream',
      headers: new Headers({ 'Content-Type': 'application/json', 'X-API-Key': 'mock-key' }),
      body: new ReadableStream<Uint8Array>({ start() {} }),
      signal: new AbortController().signal,
    });
    void Promise.resolve(never).catch(() => {});
    const stopped = other.warm();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.close();
    await expect(stopped).rejects.toThrow(/closed/);
    await service.close();
  });
});

describe('warmUp(): requests as light as the Node server makes them', () => {
  it('constructs no Fetch Headers (on Node they would load undici, which no answer needs)', async () => {
    const { warmUp } = await import('./warm-up.js');
    const original = globalThis.Headers;
    let made = 0;
    globalThis.Headers = class extends original {
      constructor(init?: HeadersInit) {
        super(init);
        made++;
      }
    };
    try {
      const service = createMockService({ logger: { error: () => {} } });
      await warmUp(service, 'mock-key');
      expect(service.state.caches.engine as unknown as { size: number }).toHaveProperty('size');
      expect((service.state.caches.engine as unknown as { size: number }).size).toBeGreaterThan(0);
      await service.close();
    } finally {
      globalThis.Headers = original;
    }
    expect(made).toBe(0);
  });
});
