/**
 * GET /__mock/state stays cheap with thousands of voices (the dashboard reads it every second): the
 * voices are signed and serialized once per version of the store, answers carry a strong ETag
 * (If-None-Match answered 304, no body), and a populate past 5,000 voices in the whole mock is
 * refused with how many can still be added.
 */
import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../service.js';
import { maxPopulatedTotal } from './populate.js';

const base = 'http://mock.test';
const get = (service: MockService, path: string, headers: Record<string, string> = {}) =>
  service.fetch(new Request(`${base}${path}`, { headers }));

/** `n` voices put straight into the store (no recordings: the state view only lists them). */
function fill(service: MockService, n: number, prefix = 'v'): void {
  for (let i = 0; i < n; i++)
    service.state.voices.commit({
      voiceId: `${prefix}${i}`,
      space: 'org_mock\u0000env_mock',
      createdAt: 1_700_000_000 + i,
      ref: `ref_${prefix}${i}`,
      audioId: `voice_${prefix}${i}`,
      audioMediaType: 'audio/wav',
      ownsAudio: true,
      account: 'acct_mock',
      profile: {} as never,
    });
}

describe('GET /__mock/state with many voices', () => {
  it('answers a strong ETag, 304 to If-None-Match, and a new tag when the voices change', async () => {
    const service = createMockService({ seed: 3 });
    fill(service, 50);
    const first = await get(service, '/__mock/state');
    const etag = first.headers.get('ETag') as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const data = (await first.json()).data;
    expect(data.voices).toHaveLength(50);
    expect(data.voiceCount).toBe(50);
    const again = await get(service, '/__mock/state', { 'If-None-Match': etag });
    expect([again.status, await again.text()]).toEqual([304, '']);
    // Without voices: the same tag of the voices, and an ETag of its own.
    const summary = await get(service, '/__mock/state?voices=none');
    const summaryData = (await summary.json()).data;
    expect(summaryData.voices).toBeUndefined();
    expect(summaryData.voicesTag).toBe(data.voicesTag);
    expect(summary.headers.get('ETag')).not.toBe(etag);
    // The voices alone, validated by voicesTag.
    const voices = await get(service, '/__mock/state/voices');
    expect(voices.headers.get('ETag')).toBe(`"${data.voicesTag}"`);
    expect((await voices.json()).data.voices).toEqual(data.voices);
    const held = await get(service, '/__mock/state/voices', { 'If-None-Match': `"${data.voicesTag}"` });
    expect(held.status).toBe(304);
    // A change of the voices moves both tags.
    fill(service, 1, 'w');
    const changed = await get(service, '/__mock/state', { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    const after = (await changed.json()).data;
    expect(after.voices).toHaveLength(51);
    expect(after.voicesTag).not.toBe(data.voicesTag);
    // A reset makes a new store: its tag is never one of before, even at the same version.
    await service.reset();
    fill(service, 50);
    expect((await (await get(service, '/__mock/state')).json()).data.voicesTag).not.toBe(data.voicesTag);
    await service.close();
  });

  it('signs and serializes 5,000 voices once, not at every poll', async () => {
    const service = createMockService({ seed: 3 });
    fill(service, 5000);
    let signed = 0;
    const sign = service.state.caches.urlSignatures.set.bind(service.state.caches.urlSignatures);
    service.state.caches.urlSignatures.set = (key, value) => {
      signed += 1;
      return sign(key, value);
    };
    const first = (await (await get(service, '/__mock/state')).json()).data;
    expect(first.voices).toHaveLength(5000);
    const afterFirst = signed;
    for (let i = 0; i < 5; i++) await (await get(service, '/__mock/state')).arrayBuffer();
    expect(signed).toBe(afterFirst);
    expect(service.state.caches.stateView.get('nothing')).toBeUndefined();
    await service.close();
  });
});

describe('POST /__mock/populate past the total cap', () => {
  it(`refuses more than ${maxPopulatedTotal} voices in the whole mock, saying how many can still be added`, async () => {
    const service = createMockService({ seed: 3 });
    fill(service, maxPopulatedTotal - 3);
    const populate = (voices: number) =>
      service.fetch(
        new Request(`${base}/__mock/populate`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ voices }),
        }),
      );
    const refused = await populate(10);
    const body = await refused.json();
    expect([refused.status, body.error_code]).toEqual([400, 10001]);
    expect(body.error_message).toBe(
      'voices: populate adds voices up to 5000 custom voices in the whole mock; it holds 4997, so at most 3 can still be added',
    );
    expect((await populate(3)).status).toBe(200);
    const full = await (await populate(1)).json();
    expect(full.error_message).toMatch(/it holds 5000, so none can still be added \(POST \/__mock\/reset/);
    await expect(service.populate({ voices: 1 })).rejects.toThrow(/none can still be added/);
    await service.close();
  });
});
