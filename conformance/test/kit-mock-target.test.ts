/**
 * A run against voice-kit's own mock behind a base URL (as against `npm start`): the run leaves the
 * mock's upload quotas as fresh as it found them, and every part of the run's report tells the same
 * story about the target being the mock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { runConformance } from '../index.js';
import { markdownReport } from '../reporters/markdown.js';
import { terminalProgress } from '../reporters/terminal.js';

let server: MockServer;
const keys = {
  noClone: 'mock-key-no-clone',
  otherProject: 'mock-key-other-project',
  otherEnv: 'mock-key-other-env',
  otherOrg: 'mock-key-other-org',
};

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

/** POST /v1/files/upload of a tiny file with `key`: its HTTP status. */
async function uploadStatus(key: string): Promise<number> {
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([new Uint8Array(16)]), 'x.wav');
  const res = await fetch(`${server.url}/v1/files/upload`, {
    method: 'POST',
    headers: { 'X-API-Key': key },
    body: form,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('conformance against voice-kit’s mock behind a base URL', () => {
  it('the rate-limit group does not leave the key at 429: the run resets the quotas it used', async () => {
    const lines: string[] = [];
    const run = await runConformance({
      baseUrl: server.url,
      apiKey: 'mock-key',
      keys,
      include: ['rate-limit'],
      only: ['upload.rate-limit.*'],
      onProgress: terminalProgress((l) => lines.push(l)),
    });
    expect(run.results.map((r) => [r.id, r.outcome])).toEqual([['upload.rate-limit.exceeded', 'pass']]);
    for (const key of ['mock-key', ...Object.values(keys)]) expect(await uploadStatus(key), key).toBe(200);
    expect(lines.join('\n')).toMatch(/upload quotas? .* reset after the run/);
  }, 60_000);

  it('is the mock for the whole report: mock-only cases run, the result and the reports say so', async () => {
    const lines: string[] = [];
    const run = await runConformance({
      baseUrl: server.url,
      apiKey: 'mock-key',
      only: ['mock.*'],
      onProgress: terminalProgress((l) => lines.push(l)),
    });
    const skipped = run.results.filter((r) => r.outcome === 'skip').map((r) => `${r.id}: ${r.skipReason}`);
    expect(skipped).toEqual([]);
    expect(run.results.length).toBeGreaterThan(0);
    expect(run).toMatchObject({ ok: true, targetIsMock: true, embeddedMock: false });
    expect(lines[0]).toMatch(/cases against http:\/\/127\.0\.0\.1:\d+ \(voice-kit's mock;/);
    expect(markdownReport(run)).toContain(`- Target: ${server.url} (voice-kit’s mock)`);
  }, 60_000);

  it('told it is not the mock (targetIsMock: false), no line of the run calls it the mock', async () => {
    const lines: string[] = [];
    const run = await runConformance({
      baseUrl: server.url,
      apiKey: 'mock-key',
      only: ['mock.*', 'envelope.success.list'],
      targetIsMock: false,
      onProgress: terminalProgress((l) => lines.push(l)),
    });
    expect(run).toMatchObject({ targetIsMock: false, embeddedMock: false });
    expect(run.results.filter((r) => r.id.startsWith('mock.')).every((r) => r.outcome === 'skip')).toBe(true);
    expect(lines.join('\n')).not.toMatch(/target is voice-kit's mock|\(voice-kit's mock/);
    expect(markdownReport(run)).not.toMatch(/Target: .*mock/);
  }, 60_000);

  it('the embedded mock is named as such', async () => {
    const run = await runConformance({ only: ['envelope.success.list'] });
    expect(run).toMatchObject({ targetIsMock: true, embeddedMock: true });
    expect(markdownReport(run)).toMatch(/- Target: http:\/\/127\.0\.0\.1:\d+ \(voice-kit’s embedded mock\)/);
  }, 60_000);
});
