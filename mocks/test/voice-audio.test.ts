/**
 * Voice audio through the Node server (red-team D4): the mock's own origin serves it, so it carries
 * nosniff and a sandbox CSP and only an audio media type, whatever the bytes. Loopback only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, serviceOptions: testServiceOptions, populate: { voices: 1 } });
});
afterAll(() => server.close());

describe('voice audio through the Node server', () => {
  it('answers with nosniff, a sandbox CSP and an audio type', async () => {
    const list = await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
    const { data } = (await list.json()) as { data: { list: { voice_url: string }[] } };
    const res = await fetch(data.list[0]?.voice_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    await res.arrayBuffer();
  });

  it('refuses to restore a voice served as text/html', async () => {
    const snapshot = server.service.snapshot();
    const voices = snapshot.voices.voices.map((v) => ({ ...v, audioMediaType: 'text/html' }));
    const res = await fetch(`${server.url}/__mock/restore`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...snapshot, voices: { ...snapshot.voices, voices } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_message: string }).error_message).toContain('audioMediaType');
  });
});
