import { describe, expect, it } from 'vitest';
import { ControlClient, type TokenStore } from './control-client.js';
import { statePoll } from './state-poll.js';

const noTokens: TokenStore = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const envelope = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error_code: 0, error_message: '', succeed: true, data }), { headers });

describe('statePoll', () => {
  it('reads the voices only when their tag moved', async () => {
    let tag = 'v1';
    const asked: string[] = [];
    const fetcher = (async (input: RequestInfo | URL) => {
      const path = String(input);
      asked.push(path);
      if (path === '/__mock/state/voices')
        return envelope({ voices: [{ voiceId: tag }] }, { ETag: `"${tag}"` });
      return envelope({ clock: { now: 1, iso: '' }, voicesTag: tag });
    }) as typeof fetch;
    const read = statePoll(new ControlClient(noTokens, fetcher));
    for (let i = 0; i < 3; i++) expect((await read()).voices).toEqual([{ voiceId: 'v1' }]);
    tag = 'v2';
    expect((await read()).voices).toEqual([{ voiceId: 'v2' }]);
    expect(await read()).toMatchObject({ voicesTag: 'v2', voices: [{ voiceId: 'v2' }] });
    expect(asked.filter((p) => p === '/__mock/state/voices')).toHaveLength(2);
    expect(asked.filter((p) => p === '/__mock/state?voices=none')).toHaveLength(5);
  });
});
