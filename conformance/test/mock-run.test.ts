/**
 * The whole suite against the kit's own mock, started by runConformance over real HTTP (embedded):
 * every must case passes, nothing is skipped (the default keys and includes cover every need), and
 * every voice the run created is gone afterwards.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../index.js';
import { terminalSummary } from '../reporters/terminal.js';
import { writeReports } from '../reporters/write-reports.js';
import type { RunResult } from '../types.js';

let run: RunResult;

beforeAll(async () => {
  run = await runConformance();
}, 120_000);

describe('conformance suite against the embedded mock', () => {
  it("ends as docs/conformance.md's example run says (all but the time)", async () => {
    const page = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'conformance.md'), 'utf8');
    const untimed = (text: string) => text.replace(/ in [\d.]+ s$/m, ' in … s');
    const example = page.split('\n').filter((l) => /^(Cases|Uploads): /.test(l));
    const summary = terminalSummary(run)
      .split('\n')
      .filter((l) => /^(Cases|Uploads): /.test(l));
    expect(example).toHaveLength(2);
    expect(untimed(example.join('\n'))).toBe(untimed(summary.join('\n')));
  });

  it('passes every must case', () => {
    const failing = run.results
      .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
      .map((r) => ({ id: r.id, error: r.error, findings: r.findings.map((f) => f.message) }));
    expect(failing).toEqual([]);
    expect(run.ok).toBe(true);
  });

  it("gives the oracle nothing to find: every answer is the contract model's, a should-level difference included", () => {
    const found = run.results.flatMap((r) =>
      r.findings.filter((f) => f.message.startsWith('oracle.')).map((f) => `${r.id}: ${f.message}`),
    );
    expect(found).toEqual([]);
  });

  it('skips nothing: the default keys, billable and every include cover all needs', () => {
    expect(run.results.filter((r) => r.outcome === 'skip').map((r) => `${r.id}: ${r.skipReason}`)).toEqual(
      [],
    );
    expect(run.counts.pass).toBeGreaterThan(80);
  });

  it('leaves no voice of the run behind and reports the cost', () => {
    expect(run.billing.voicesCreated).toBeGreaterThan(0);
    expect(run.billing.voicesRemaining).toBe(0);
    expect(run.billing.cleanupFailures).toEqual([]);
    expect(run.billing.remainingFreeCloneCountBefore).toBeGreaterThan(0);
  });

  it('writes JSON, JUnit and Markdown reports from the results', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vk-conformance-'));
    try {
      await writeReports(run, dir);
      const json = JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as RunResult;
      expect(json.results.length).toBe(run.results.length);
      const xml = await readFile(join(dir, 'conformance.junit.xml'), 'utf8');
      expect(xml.match(/<testcase /g)?.length).toBe(run.results.length);
      const md = await readFile(join(dir, 'conformance.md'), 'utf8');
      expect(md).toContain('## Where the spec is silent: what this deployment does');
      expect(md).toContain('`page-size-out-of-range`');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
