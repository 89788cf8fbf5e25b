import type { CaseResult, ProgressEvent, RunResult } from '../types.js';
import { voicesPhrase } from './cost.js';
import { bySection } from './sections.js';

const mark: Record<CaseResult['outcome'], string> = {
  pass: 'ok  ',
  fail: 'FAIL',
  error: 'ERR ',
  warn: 'warn',
  skip: 'skip',
  observed: 'obs ',
};

/**
 * A progress printer: one line per finished case, failures with their findings.
 *
 * @example
 * runConformance({ onProgress: terminalProgress((line) => process.stderr.write(`${line}\n`)) });
 */
export function terminalProgress(write: (line: string) => void): (e: ProgressEvent) => void {
  return (e) => {
    if (e.type === 'start') {
      const mock = e.embeddedMock
        ? "voice-kit's embedded mock; "
        : e.targetIsMock
          ? "voice-kit's mock; "
          : '';
      write(
        `voice-kit conformance: ${e.total} cases against ${e.baseUrl} (${mock}run prefix ${e.runPrefix})`,
      );
    }
    if (e.type === 'case-end') {
      const r = e.result;
      const n = `[${String(e.index + 1).padStart(3)}/${e.total}]`;
      write(
        `${n} ${mark[r.outcome]} ${r.id}${r.outcome === 'skip' ? ` — ${r.skipReason}` : ''} (${r.durationMs} ms)`,
      );
      if (r.error) write(`         threw: ${r.error}`);
      for (const f of r.findings)
        write(`         ${f.level}: ${f.request ? `${f.request}: ` : ''}${f.message}`);
    }
    if (e.type === 'cleanup')
      write(`cleanup: deleted ${e.deleted} voices of this run, ${e.failures} failures`);
    if (e.type === 'info') write(e.message);
  };
}

/** The end-of-run summary: counts per section, the verdict, and the cost. */
export function terminalSummary(run: RunResult): string {
  const lines = ['', 'Summary by section:'];
  for (const [section, results] of bySection(run.results)) {
    const n = (o: CaseResult['outcome']) => results.filter((r) => r.outcome === o).length;
    const parts = [
      `${n('pass')} pass`,
      `${n('fail') + n('error')} fail`,
      `${n('warn')} warn`,
      `${n('observed')} observed`,
      `${n('skip')} skipped`,
    ];
    lines.push(`  ${section.padEnd(6)} ${parts.join(', ')}`);
  }
  const c = run.counts;
  const b = run.billing;
  lines.push(
    '',
    `Cases: ${c.total}; ${c.pass} pass, ${c.fail} fail, ${c.error} error, ${c.warn} warn, ${c.observed} observed, ${c.skip} skipped in ${(run.durationMs / 1000).toFixed(1)} s`,
    `Uploads: ${b.uploads}. ${voicesPhrase(b)}; remainingFreeCloneCount before ${b.remainingFreeCloneCountBefore ?? '?'}, after ${b.remainingFreeCloneCountAfter ?? '?'}`,
    ...(b.cleanupFailures.length > 0 ? [`Cleanup failures: ${b.cleanupFailures.join('; ')}`] : []),
    run.aborted
      ? `ABORTED (interrupted) — ${c.fail + c.error} must case(s) failed so far`
      : run.ok
        ? 'PASS: every must case passed'
        : `FAIL: ${c.fail + c.error} must case(s) failed`,
  );
  return lines.join('\n');
}
