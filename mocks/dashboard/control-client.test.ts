import { describe, expect, it } from 'vitest';
import {
  ControlClient,
  ControlError,
  type TokenStore,
  takeToken,
  tokenStorageKey,
} from './control-client.js';

const store = (): TokenStore & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
};

describe('takeToken', () => {
  it.each([
    ['#token=abc', 'abc', ''],
    ['#token=abc&view=log', 'abc', '#view=log'],
    ['#view=log', undefined, '#view=log'],
    ['', undefined, ''],
  ])('%j keeps %j and leaves %j in the address', (hash, kept, rest) => {
    const tokens = store();
    expect(takeToken(hash, tokens)).toBe(rest);
    expect(tokens.items.get(tokenStorageKey)).toBe(kept);
  });

  it('an empty #token= forgets the token', () => {
    const tokens = store();
    tokens.setItem(tokenStorageKey, 'old');
    takeToken('#token=', tokens);
    expect(tokens.items.has(tokenStorageKey)).toBe(false);
  });
});

describe('ControlClient', () => {
  const answering = (status: number, body: string) => {
    const seen: Headers[] = [];
    const fetcher = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    return { seen, fetcher };
  };

  it('sends the tab’s token on every request, and none without one', async () => {
    const tokens = store();
    const { seen, fetcher } = answering(200, '{"succeed":true,"data":{"n":1}}');
    const client = new ControlClient(tokens, fetcher);
    await expect(client.json('/__mock/state')).resolves.toEqual({ n: 1 });
    client.setToken('secret');
    await client.post('/__mock/reset');
    expect(seen.map((h) => h.get('X-Mock-Control-Token'))).toEqual([null, 'secret']);
    expect(seen[0]?.get('Accept')).toContain('application/json');
  });

  it('turns a refusal into a ControlError with the envelope’s code and message; 401 asks for the token', async () => {
    const { fetcher } = answering(
      401,
      '{"error_code":10003,"error_message":"the control API needs X-Mock-Control-Token","succeed":false,"data":null}',
    );
    const error = await new ControlClient(store(), fetcher).json('/__mock/state').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect(error).toMatchObject({
      status: 401,
      code: 10003,
      message: 'the control API needs X-Mock-Control-Token',
    });
    expect((error as ControlError).needsToken).toBe(true);
  });

  it('says what came back when a refusal is not JSON', async () => {
    const { fetcher } = answering(503, 'not built');
    const error = await new ControlClient(store(), fetcher).raw('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 503,
      code: null,
      message: 'HTTP 503: not built',
      needsToken: false,
    });
  });
});
