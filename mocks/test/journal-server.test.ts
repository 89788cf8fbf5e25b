/**
 * The request journal of the Node server: a run of the same request keeps one exchange (the Node
 * adapter's headers say whether two requests sent the same lines), and each entry's detail still
 * shows what its own request sent. Loopback only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../core/platform/clock.js';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

interface Detail {
  seq: number;
  request: { url: string; headers: { name: string; value: string }[] };
}

describe('the journal of repeated requests to the Node server', () => {
  let server: MockServer;
  beforeAll(async () => {
    // A clock that stays: with the system's, a list made in the next second is a new answer (new
    // voice_url expiry), so its exchange is rightly its own.
    server = await startMockServer({
      port: 0,
      serviceOptions: { ...testServiceOptions, clock: manualClock() },
    });
  });
  afterAll(() => server.close());

  const list = (headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key', ...headers } }).then((r) =>
      r.arrayBuffer(),
    );
  const detail = async (seq: number) =>
    ((await (await fetch(`${server.url}/__mock/requests/${seq}`)).json()) as { data: Detail }).data;
  const traceOf = (d: Detail) => d.request.headers.find((h) => h.name === 'x-trace')?.value;

  it('shares one exchange between the same lists, and shows each its own headers', async () => {
    const before = server.service.state.requests.position.lastSeq;
    await list();
    await list();
    await list({ 'X-Trace': 'abc' });
    await list({ 'X-Trace': 'abc' });
    const items = server.service.state.requests.items().slice(-4);
    expect(items.map((i) => i.entry.seq)).toEqual([before + 1, before + 2, before + 3, before + 4]);
    const [a, b, c, d] = items.map((i) => i.exchange);
    expect(b).toBe(a);
    expect(c).not.toBe(b);
    expect(d).toBe(c);
    const details = await Promise.all(items.map((i) => detail(i.entry.seq)));
    expect(details.map(traceOf)).toEqual([undefined, undefined, 'abc', 'abc']);
    expect(details.map((x) => x.seq)).toEqual(items.map((i) => i.entry.seq));
    expect(details[1]?.request.headers).toEqual(details[0]?.request.headers);
    expect(details[0]?.request.headers.find((h) => h.name === 'x-api-key')?.value).toBe('m…y');
    // In the next second the list is made anew (its voice_urls expire a second later): its own exchange.
    server.service.clock.advance(1000);
    await list({ 'X-Trace': 'abc' });
    expect(server.service.state.requests.items().at(-1)?.exchange).not.toBe(d);
  });
});
