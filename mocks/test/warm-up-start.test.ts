/**
 * When the Node server warms its synthesizer: once its first request has been answered, not as soon as
 * it listens, so that the first answer (most often a readiness probe) never waits for the warm-up's
 * first compiles, and a server nobody calls does no work.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMockService } from '../core/service.js';
import { startMockServer } from '../node/server.js';

const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('startMockServer: the warm-up waits for the first answer', () => {
  it('starts nothing while no request came, then warms once after the first answer', async () => {
    const service = createMockService({ logger: { error: () => {} } });
    const warm = vi.spyOn(service, 'warm');
    const server = await startMockServer({ port: 0, service });
    try {
      await turns(5);
      expect(warm).not.toHaveBeenCalled();
      const list = await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
      expect(list.status).toBe(200);
      await list.arrayBuffer();
      await vi.waitFor(() => expect(warm).toHaveBeenCalledTimes(1));
      const again = await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
      await again.arrayBuffer();
      await turns(5);
      expect(warm).toHaveBeenCalledTimes(1);
    } finally {
      await server.close();
      await service.close();
    }
  });
});
