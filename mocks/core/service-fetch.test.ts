// service.fetch is a fetch: typed as one (these lines are checked by tsc with the repository, no cast),
// and it answers what fetch takes: a URL string, a URL, a Request, each with an init.
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { paths } from '../../openapi/generated/voice-service.js';
import { createMockService } from './service.js';

const base = 'http://mock.test';
const key = { 'X-API-Key': 'mock-key' };

describe('service.fetch is a fetch', () => {
  it('is assignable to typeof fetch, with no cast', () => {
    const service = createMockService();
    const asFetch: typeof fetch = service.fetch;
    expectTypeOf(service.fetch).toExtend<typeof fetch>();
    expectTypeOf(asFetch).toBeFunction();
  });

  it('answers a URL string with its init, a URL, and a Request with an init that changes it', async () => {
    const service = createMockService();
    const total = async (res: Response) => {
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { total: number } }).data.total;
    };
    expect(await total(await service.fetch(`${base}/v1/voice/list`, { headers: key }))).toBe(0);
    expect(await total(await service.fetch(new URL(`${base}/v1/voice/list`), { headers: key }))).toBe(0);
    const keyless = new Request(`${base}/v1/voice/list`);
    expect((await service.fetch(keyless)).status).toBe(401);
    expect(await total(await service.fetch(keyless, { headers: key }))).toBe(0);
    const saved = await service.fetch(`${base}/v1/text-to-speech`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ generate_text: 'Hello there!' }),
    });
    expect([saved.status, saved.headers.get('content-type')]).toEqual([200, 'audio/wav']);
  });

  it('a relative URL is refused as fetch refuses it (no base to resolve it against)', async () => {
    const service = createMockService();
    await expect(service.fetch('/v1/voice/list')).rejects.toThrow(TypeError);
  });

  it("is handed to openapi-fetch's createClient as it is", async () => {
    const service = createMockService();
    const client = createClient<paths>({ baseUrl: base, headers: key, fetch: service.fetch });
    const { data, response } = await client.GET('/v1/voice/list');
    expect(response.status).toBe(200);
    expect(data?.data.total).toBe(0);
  });
});
