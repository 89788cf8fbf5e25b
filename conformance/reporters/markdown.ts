import { openQuestions } from '../../openapi/generated/open-questions.js';
import type { CaseResult, RunResult } from '../types.js';
import { voicesPhrase } from './cost.js';
import { bySection, observationsByQuestion } from './sections.js';

const icon: Record<CaseResult['outcome'], string> = {
  pass: 'pass',
  fail: '**FAIL**',
  error: '**ERROR**',
  warn: 'warn',
  skip: 'skip',
  observed: 'observed',
};

/** Escape a value for a Markdown table cell. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** What went wrong or why it was skipped, in one cell. */
function detail(r: CaseResult): string {
  if (r.outcome === 'skip') return r.skipReason ?? '';
  if (r.error) return `threw: ${r.error}`;
  return r.findings.map((f) => `${f.level === 'should' ? '(should) ' : ''}${f.message}`).join('\n');
}

/** The "Where the spec is silent" table: every open question the run observed, with the mock's choice beside it. */
function silentTable(run: RunResult): string[] {
  const observed = observationsByQuestion(run.results);
  const rows = [...observed.entries()].map(([id, values]) => {
    const q = openQuestions.find((x) => x.id === id);
    return `| \`${id}\` | ${q?.section ?? ''} | ${cell(q?.question ?? '')} | ${cell(values.join('\n'))} | ${cell(q?.mock ?? '')} |`;
  });
  return [
    '## Where the spec is silent: what this deployment does',
    '',
    "Recorded, never failed. The last column is what the kit's mock does, for comparison.",
    '',
    '| Open question | § | The spec leaves open | This deployment | The kit’s mock |',
    '|---|---|---|---|---|',
    ...(rows.length > 0 ? rows : ['| – | | no observations in this run | | |']),
  ];
}

/**
 * What needs reading first, before the per-section tables a long run makes long: every failed or
 * errored case, then every warning (a should case that did not hold), each with its section and
 * details. A section is left out when it has no row.
 */
function attentionSections(run: RunResult): string[] {
  const table = (title: string, intro: string, rows: readonly CaseResult[]) =>
    rows.length === 0
      ? []
      : [
          `## ${title} (${rows.length})`,
          '',
          intro,
          '',
          '| Case | § | Severity | Outcome | Details |',
          '|---|---|---|---|---|',
          ...rows.map(
            (r) =>
              `| \`${r.id}\` — ${cell(r.title)} | ${r.section} | ${r.severity} | ${icon[r.outcome]} | ${cell(detail(r))} |`,
          ),
          '',
        ];
  return [
    ...table(
      'Failures',
      'Cases that failed or threw; a must one fails the run.',
      run.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error'),
    ),
    ...table(
      'Warnings',
      'Should cases that did not hold: the run still passes.',
      run.results.filter((r) => r.outcome === 'warn'),
    ),
  ];
}

/**
 * The run as a Markdown report: verdict, cost, the failures then the warnings, results by section,
 * and the table of observations where the spec is silent.
 *
 * @example
 * await writeFile('conformance.md', markdownReport(result));
 */
export function markdownReport(run: RunResult): string {
  const c = run.counts;
  const b = run.billing;
  const lines = [
    '# voice-kit conformance report',
    '',
    `- Target: ${run.baseUrl}${run.embeddedMock ? ' (voice-kit’s embedded mock)' : run.targetIsMock ? ' (voice-kit’s mock)' : ''}`,
    `- Verdict: ${run.ok ? '**PASS**: every must case passed' : '**FAIL**: at least one must case failed'}${run.aborted ? ' (aborted)' : ''}`,
    `- Cases: ${c.total} — ${c.pass} pass, ${c.fail} fail, ${c.error} error, ${c.warn} warn, ${c.observed} observed, ${c.skip} skipped`,
    `- Started ${run.startedAt}, took ${(run.durationMs / 1000).toFixed(1)} s; run prefix \`${run.runPrefix}\``,
    `- Uploads ${b.uploads}. ${voicesPhrase(b)}; remainingFreeCloneCount ${b.remainingFreeCloneCountBefore ?? '?'} → ${b.remainingFreeCloneCountAfter ?? '?'}`,
    ...(b.cleanupFailures.length > 0 ? [`- Cleanup failures: ${b.cleanupFailures.join('; ')}`] : []),
    '',
    ...attentionSections(run),
    '## Results by section',
    '',
    'A section (§4.2) is one of the service interface spec. `docs/spec-sections.md` of voice-kit',
    '(`node_modules/voice-kit/docs/spec-sections.md` where it is installed) says what each one asks for.',
    '',
  ];
  for (const [section, results] of bySection(run.results)) {
    lines.push(`### ${section}`, '', '| Case | Severity | Outcome | Details |', '|---|---|---|---|');
    for (const r of results) {
      lines.push(
        `| \`${r.id}\` — ${cell(r.title)} | ${r.severity} | ${icon[r.outcome]} | ${cell(detail(r))} |`,
      );
    }
    lines.push('');
  }
  lines.push(...silentTable(run), '');
  return lines.join('\n');
}
