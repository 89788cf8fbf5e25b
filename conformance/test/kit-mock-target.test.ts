/**
 * A run against voice-kit's own mock behind a base URL (as against `npm start`): every part of the
 * run's report tells the same story about the target being the mock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.js';
import { runConformance } from '../index.js';
import { markdownReport } from '../reporters/markdown.js';
import { terminalProgress } from '../reporters/terminal.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

describe('conformance against voice-kit’s mock behind a base URL', () => {
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
