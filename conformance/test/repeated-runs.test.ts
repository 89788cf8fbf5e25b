/**
 * Runs follow each other against one long-lived mock (as against `npm start`): the upload quota of
 * §8 (30 an hour) is smaller than two runs' uploads, so the runner frees it on voice-kit's mock, and on
 * any other deployment a spent quota makes the run inconclusive (error), never a silent pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { limits } from '../../openapi/contract.js';
import { runConformance } from '../index.js';

let server: MockServer;
const keys = {
  noClone: 'mock-key-no-clone',
  otherProject: 'mock-key-other-project',
  otherEnv: 'mock-key-other-env',
  otherOrg: 'mock-key-other-org',
};
const only = ['upload.accepts.*', 'upload.extension.*', 'voice-save.reference.*'];

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

const failures = (run: Awaited<ReturnType<typeof runConformance>>) =>
  run.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => r.id);

describe('conformance runs one after another against one mock server', () => {
  it('passes three times in a row: the kit mock’s upload window is reset at the start of each run', async () => {
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await runConformance({
        baseUrl: server.url,
        apiKey: 'mock-key',
        keys,
        allowBillable: true,
        only,
        onProgress: (e) => {
          if (e.type === 'info') messages.push(e.message);
        },
      });
      expect(failures(run)).toEqual([]);
      expect(run.billing.uploads).toBeGreaterThan(10);
    }
    expect(messages.filter((m) => /reset for this run/.test(m))).toHaveLength(3);
    expect(messages.filter((m) => /reset after the run/.test(m))).toHaveLength(3);
  }, 90_000);

  it('on a deployment that cannot be reset, a spent quota makes the upload cases error, naming the quota', async () => {
    const form = () => {
      const f = new FormData();
      f.set('scene', 'audio');
      f.set('file', new Blob([new Uint8Array(16)]), 'x.wav');
      return f;
    };
    await fetch(`${server.url}/__mock/rate-limit/reset`, { method: 'POST' });
    for (let i = 0; i < limits.uploadRatePerHour.value; i++) {
      const res = await fetch(`${server.url}/v1/files/upload`, {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key' },
        body: form(),
      });
      expect(res.status).toBe(200);
    }
    // A proxy that hides the control API: the runner sees an ordinary deployment.
    const hidden: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/__mock/')) return Promise.resolve(new Response('not here', { status: 404 }));
      return fetch(input, init);
    };
    const run = await runConformance({
      baseUrl: server.url,
      apiKey: 'mock-key',
      keys,
      only: ['upload.accepts.*'],
      fetch: hidden,
    });
    expect(run.ok).toBe(false);
    const errored = run.results.filter((r) => r.outcome === 'error');
    expect(errored.length).toBeGreaterThan(0);
    expect(errored[0]?.error).toMatch(/upload quota of this key's user is spent \(HTTP 429/);
  }, 60_000);
});
