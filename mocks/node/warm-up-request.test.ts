import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createMockService, type MockService } from '../core/service.js';
import { startMockServer } from './server.js';
import { ownConnectionOnly, warmNodePath } from './warm-up-request.js';

const quiet = { logger: { error: () => {} } };
const servers = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap').length;

describe('warmNodePath(): a stream through the Node adapter, on a throwaway server', () => {
  it('goes through the request handler and the chunked writer of a server of its own, then closes it', async () => {
    const spare = createMockService(quiet);
    const before = servers();
    await warmNodePath(spare, 'mock-key', { cors: true, bodyTimeoutMs: 1_000 });
    // The writer learns of the hang-up in a later turn than close() returns in: its timing lands then.
    const timed = () => spare.state.requests.list().every((entry) => entry.stream !== null);
    for (let i = 0; i < 100 && !timed(); i++) await new Promise((r) => setTimeout(r, 10));
    const streamed = spare.state.requests.list();
    expect(streamed.length).toBeGreaterThanOrEqual(1);
    for (const entry of streamed) {
      expect(entry).toMatchObject({ method: 'POST', path: '/v1/text-to-speech/stream', status: 200 });
      // Only the Node writer times a stream's chunks: the request came through the adapter, not the core.
      expect(entry.stream?.chunks).toBeGreaterThan(0);
    }
    // Its listening handle goes a moment after close() returns.
    for (let i = 0; i < 50 && servers() > before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(servers()).toBe(before);
    await spare.close();
  });

  it('sends nothing for a key no header can carry', async () => {
    const spare = createMockService(quiet);
    await warmNodePath(spare, 'mock\r\nkey', { cors: true, bodyTimeoutMs: 1_000 });
    expect(spare.state.requests.list()).toEqual([]);
    await spare.close();
  });
});

describe('service.warm(through): the adapter warms its own way with the same throwaway service', () => {
  it('hands the spare (never the real service) and the first key to `through`, after the core passes', async () => {
    const service = createMockService({ seed: 3, ...quiet });
    const before = JSON.stringify(service.snapshot());
    const handed: { spare: MockService; apiKey: string }[] = [];
    await service.warm(async (spare, apiKey) => {
      handed.push({ spare, apiKey });
      await warmNodePath(spare, apiKey, { cors: true, bodyTimeoutMs: 1_000 });
    });
    expect(handed).toHaveLength(1);
    expect(handed[0]?.spare).not.toBe(service);
    expect(handed[0]?.apiKey).toBe('mock-key');
    expect(handed[0]?.spare.state.requests.list().length).toBeGreaterThan(0);
    // No trace in the real service: request log, ledger, journal, the snapshot.
    expect(service.state.requests.list()).toEqual([]);
    expect(JSON.stringify(service.snapshot())).toBe(before);
    await service.close();
  });
});

describe('startMockServer(): the warm-up after listen leaves the real server as it was', () => {
  it('walks the Node way of a stream through a throwaway server, with no line in the real request log', async () => {
    const server = await startMockServer({ port: 0, serviceOptions: quiet });
    try {
      // The Node pass says a text of its own after the core's six: the engine's memos show it went by.
      const engine = server.service.state.caches.engine as unknown as { size: number };
      const coreOnly = createMockService(quiet);
      await coreOnly.warm();
      const coreEntries = (coreOnly.state.caches.engine as unknown as { size: number }).size;
      const deadline = Date.now() + 4_000;
      while (engine.size <= coreEntries && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(engine.size).toBeGreaterThan(coreEntries);
      expect(server.service.state.requests.list()).toEqual([]);
      // A real client is answered by the real server and logged there.
      const res = await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
      expect(res.status).toBe(200);
      expect(server.service.state.requests.list().map((e) => e.path)).toEqual(['/v1/voice/list']);
      await coreOnly.close();
    } finally {
      await server.close();
    }
  });
});

describe('ownConnectionOnly(): the throwaway server answers its own connection, no one else', () => {
  const request = (remotePort: number) => {
    const destroy = vi.fn();
    return { req: { socket: { remotePort, destroy } } as unknown as IncomingMessage, destroy };
  };
  const res = {} as ServerResponse;

  it('hands the warm-up’s own request to the handler, and hangs up on any other', () => {
    const handle = vi.fn();
    const listener = ownConnectionOnly(handle, () => 50_001);
    const own = request(50_001);
    listener(own.req, res);
    expect(handle).toHaveBeenCalledWith(own.req, res);
    expect(own.destroy).not.toHaveBeenCalled();
    const stranger = request(50_002);
    listener(stranger.req, res);
    expect(handle).toHaveBeenCalledTimes(1);
    expect(stranger.destroy).toHaveBeenCalled();
  });

  it('hangs up on everyone before its own client has connected', () => {
    const handle = vi.fn();
    const early = request(50_003);
    ownConnectionOnly(handle, () => undefined)(early.req, res);
    expect(handle).not.toHaveBeenCalled();
    expect(early.destroy).toHaveBeenCalled();
  });
});
