import { xmlEscape } from '../../common/xml-escape.js';
import type { CaseResult, RunResult } from '../types.js';
import { bySection } from './sections.js';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(r: CaseResult, suite: string): string {
  const props = [
    ['id', r.id],
    ['section', r.section],
    ['severity', r.severity],
    ['outcome', r.outcome],
    ...(r.openQuestion ? [['open-question', r.openQuestion]] : []),
  ]
    .map(([n, v]) => `        <property name="${xmlEscape(n ?? '')}" value="${xmlEscape(v ?? '')}"/>`)
    .join('\n');
  const lines: string[] = [`      <properties>\n${props}\n      </properties>`];
  const details = r.findings
    .map((f) => `[${f.level}] ${f.request ? `${f.request}: ` : ''}${f.message}`)
    .join('\n');
  if (r.outcome === 'fail') {
    const first = r.findings.find((f) => f.level === 'must')?.message ?? 'failed';
    lines.push(`      <failure message="${xmlEscape(first)}" type="must">${xmlEscape(details)}</failure>`);
  } else if (r.outcome === 'error') {
    lines.push(
      `      <error message="${xmlEscape(r.error ?? 'error')}" type="error">${xmlEscape(details)}</error>`,
    );
  } else if (r.outcome === 'skip') {
    lines.push(`      <skipped message="${xmlEscape(r.skipReason ?? 'skipped')}"/>`);
  }
  const out = [
    ...(r.outcome === 'warn' ? [`WARN (should): ${details}`] : []),
    ...r.observations.map((o) => `observed ${o.question}: ${o.value}`),
    ...r.notes.map((n) => `note: ${n}`),
  ];
  if (out.length > 0) lines.push(`      <system-out>${xmlEscape(out.join('\n'))}</system-out>`);
  const name = `${r.id}: ${r.title}`;
  return `    <testcase classname="conformance.${xmlEscape(suite)}" name="${xmlEscape(name)}" time="${seconds(r.durationMs)}">\n${lines.join('\n')}\n    </testcase>`;
}

/**
 * The run as JUnit XML: one testsuite per spec section, one testcase per case. Should-level failures
 * pass (with a WARN line in system-out); skipped cases carry their reason.
 *
 * @example
 * await writeFile('conformance.junit.xml', junitReport(result));
 */
export function junitReport(run: RunResult): string {
  const suites = bySection(run.results).map(([section, results]) => {
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const time = results.reduce((t, r) => t + r.durationMs, 0);
    const attrs = `name="${xmlEscape(section)}" tests="${results.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${count('skip')}" time="${seconds(time)}"`;
    return `  <testsuite ${attrs}>\n${results.map((r) => testcase(r, section)).join('\n')}\n  </testsuite>`;
  });
  const c = run.counts;
  const head = `<testsuites name="voice-kit conformance" tests="${c.total}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip}" time="${seconds(run.durationMs)}">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${suites.join('\n')}\n</testsuites>\n`;
}
