import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../service.js';
import type { StateChange, StateRow, StateStore } from './state-store.js';

/** A durable store kept in a Map, as the SQLite one keeps its table; `failNext` makes a commit fail. */
function mapStore() {
  const rows = new Map<string, StateRow>();
  const key = (table: string, k: string) => `${table}\u0000${k}`;
  const store: StateStore & { failNext: boolean; commits: number } = {
    durable: true,
    failNext: false,
    commits: 0,
    async commit(change: StateChange) {
      if (store.failNext) {
        store.failNext = false;
        throw new Error('disk full');
      }
      store.commits += 1;
      for (const table of change.clear ?? [])
        for (const [k, row] of rows) if (row.table === table) rows.delete(k);
      for (const { table, key: k } of change.remove ?? []) rows.delete(key(table, k));
      for (const row of change.put ?? []) rows.set(key(row.table, row.key), structuredClone(row));
    },
    read: async () => [...rows.values()].map((row) => structuredClone(row)),
    close: async () => {},
  };
  return store;
}

const base = 'http://mock.test';
const call = async (service: MockService, path: string, init: RequestInit = {}) => {
  const response = await service.fetch(new Request(`${base}${path}`, init));
  return { status: response.status, body: await response.json() };
};
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('a durable StateStore', () => {
  it('gets every change, and a new service on its rows has the same state', async () => {
    const store = mapStore();
    const first = createMockService({ persistence: { store, rows: [] } });
    await call(first, '/__mock/populate', post({ voices: 3, seed: 4 }));
    await call(first, '/__mock/clock/advance', post({ seconds: 600 }));
    await call(first, '/__mock/rate-limit/reset', { method: 'POST' });
    const rows = await store.read();
    const second = createMockService({ persistence: { store, rows }, storage: undefined });
    expect(second.snapshot()).toEqual(first.snapshot());
    expect(second.clock.now()).toBe(first.clock.now());
    // A reset is stored too: a third service starts empty, the clock back at its start.
    await call(second, '/__mock/reset', { method: 'POST' });
    const third = createMockService({ persistence: { store, rows: await store.read() } });
    expect(third.snapshot().voices.voices).toEqual([]);
    expect(third.clock.now()).toBe(createMockService().clock.now());
  });

  it('answers 500 in the envelope when a write fails, and memory goes back to what is stored', async () => {
    const store = mapStore();
    const errors: string[] = [];
    const service = createMockService({
      persistence: { store, rows: [] },
      logger: { error: (message) => errors.push(message) },
    });
    const before = service.clock.now();
    store.failNext = true;
    const moved = await call(service, '/__mock/clock/advance', post({ seconds: 3600 }));
    expect(moved.status).toBe(500);
    expect(moved.body.error_code).toBe(10000);
    expect(moved.body.error_message).toMatch(/could not be stored.*disk full/);
    expect(service.clock.now()).toBe(before);
    store.failNext = true;
    const populated = await call(service, '/__mock/populate', post({ voices: 2, seed: 1 }));
    expect(populated.status).toBe(500);
    expect(service.snapshot().voices.voices).toEqual([]);
    // The next write works again.
    expect((await call(service, '/__mock/populate', post({ voices: 2, seed: 1 }))).status).toBe(200);
    expect(service.snapshot().voices.voices).toHaveLength(2);
    expect(errors.length).toBeGreaterThan(0);
  });
});
