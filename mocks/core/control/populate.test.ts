import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../service.js';

const base = 'http://mock.test';
const populate = (service: MockService, body: unknown) =>
  service.fetch(
    new Request(`${base}/__mock/populate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
const list = async (service: MockService, query = '') => {
  const response = await service.fetch(
    new Request(`${base}/v1/voice/list${query}`, { headers: { 'X-API-Key': 'mock-key' } }),
  );
  return (await response.json()).data as {
    list: { voice_id: string; voice_url: string; created_at: number }[];
    total: number;
    has_more: boolean;
    next_cursor?: string;
  };
};
const bytes = async (service: MockService, url: string) =>
  new Uint8Array(await (await service.fetch(new Request(url))).arrayBuffer());

describe('POST /__mock/populate', () => {
  it('labels its voices "populated" in GET /__mock/state (they have no upload and no URL)', async () => {
    const service = createMockService({ seed: 5 });
    await populate(service, { voices: 2, seed: 9 });
    const view = await (await service.fetch(new Request(`${base}/__mock/state`))).json();
    expect(view.data.voices.map((v: { source: string }) => v.source)).toEqual(['populated', 'populated']);
    // A snapshot keeps the mark: restored, they are still "populated" (the snapshot schema takes it).
    const snapshot = await (await service.fetch(new Request(`${base}/__mock/snapshot`))).text();
    await service.fetch(new Request(`${base}/__mock/reset`, { method: 'POST' }));
    const restored = await service.fetch(
      new Request(`${base}/__mock/restore`, {
        method: 'POST',
        body: snapshot,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect(restored.status).toBe(200);
    const again = await (await service.fetch(new Request(`${base}/__mock/state`))).json();
    expect(again.data.voices.map((v: { source: string }) => v.source)).toEqual(['populated', 'populated']);
  });

  it('makes N voices with ids, spread creation times and playable, usable reference recordings', async () => {
    const service = createMockService({ seed: 5 });
    const answer = await populate(service, { voices: 30, seed: 9 });
    expect(answer.status).toBe(200);
    const made = (await answer.json()).data;
    expect(made.created).toBe(30);
    const first = await list(service, '?page_size=20');
    expect(first.list).toHaveLength(20);
    expect(first.has_more).toBe(true);
    expect(new Set(made.voices.map((v: { voice_id: string }) => v.voice_id)).size).toBe(30);
    for (const voice of first.list) expect(voice.voice_id).toMatch(/^[a-z0-9_-]{1,30}$/);
    // Oldest first, spread over months before the mock clock.
    const times = made.voices.map((v: { created_at: number }) => v.created_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const now = Math.floor(service.clock.now() / 1000);
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
    expect(now - Math.min(...times)).toBeGreaterThan(60 * 24 * 3600);
    // voice_url plays a WAV, and synthesis with the voice works.
    const wav = await bytes(service, first.list[0]?.voice_url ?? '');
    expect(new TextDecoder().decode(wav.slice(0, 4))).toBe('RIFF');
    expect(wav.byteLength).toBeGreaterThan(16_000);
    const speech = await service.fetch(
      new Request(`${base}/v1/text-to-speech`, {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: 'Hello', voice_id: first.list[0]?.voice_id }),
      }),
    );
    expect(speech.status).toBe(200);
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    // Fixtures consume no free use and charge nothing (the synthesis above counted its characters).
    const ledger = await (await service.fetch(new Request(`${base}/__mock/ledger`))).json();
    expect(ledger.data.accounts['account-1']).toEqual({
      freeUsesConsumed: 0,
      chargedCreations: [],
      synthesizedCharacters: 5,
    });
  });

  it('gives the same voices and recordings for the same seed, others for another', async () => {
    const run = async (seed: number) => {
      const service = createMockService();
      await populate(service, { voices: 5, seed });
      const voices = (await list(service)).list;
      const recordings = await Promise.all(voices.map((v) => bytes(service, v.voice_url)));
      return { ids: voices.map((v) => [v.voice_id, v.created_at]), recordings };
    };
    const [a, b, c] = await Promise.all([run(11), run(11), run(12)]);
    expect(b.ids).toEqual(a.ids);
    for (const [i, recording] of a.recordings.entries())
      expect(Buffer.compare(recording, b.recordings[i] as Uint8Array)).toBe(0);
    expect(c.ids).not.toEqual(a.ids);
  });

  it('adds to existing voices without replacing any, under new ids', async () => {
    const service = createMockService();
    await populate(service, { voices: 3, seed: 1 });
    await populate(service, { voices: 3, seed: 1 });
    const ids = (await list(service)).list.map((v) => v.voice_id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  it.each([
    [{}, 'voices'],
    [{ voices: 0 }, 'voices'],
    [{ voices: 1001 }, 'voices'],
    [{ voices: 2.5 }, 'voices'],
    [{ voices: '5' }, 'voices'],
    [{ voices: 5, seed: -1 }, 'seed'],
    [{ voices: 5, key: 'nobody' }, 'key'],
    [{ voices: 5, colour: 'red' }, 'unknown field "colour"'],
    [[5], 'expected a JSON body'],
  ])('refuses %j in the envelope (400/10001)', async (body, named) => {
    const service = createMockService();
    const answer = await populate(service, body);
    expect(answer.status).toBe(400);
    const envelope = await answer.json();
    expect(envelope.error_code).toBe(10001);
    expect(envelope.error_message).toContain(named);
    expect((await list(service)).total).toBe(0);
  });

  it('populates at creation with the populate option; requests wait for it', async () => {
    const service = createMockService({ populate: { voices: 4, seed: 2 } });
    expect((await list(service)).total).toBe(4);
    await service.ready;
  });
});
