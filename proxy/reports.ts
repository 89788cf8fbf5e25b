/**
 * A session's reports, as the conformance suite writes its own: proxy.json (exchanges and violations),
 * proxy.junit.xml (one testcase per rule: a must violation fails it, should ones are printed) and
 * proxy.md (verdict, violations by rule, every violation under its rule, exchanges). The XML escaping is the conformance reporter's.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeReportFile } from '../common/report-file.js';
import { xmlEscape } from '../common/xml-escape.js';
import { rules } from '../judge/rules.js';
import type { ProxyReport, Violation } from './types.js';

/** One line per violation: `[must] error-code.for-status §7.1 POST /v1/files/upload (exchange 12): seen`. */
export function violationLine(v: Violation): string {
  return `[${v.severity}] ${v.rule} ${v.section} ${v.operation} (${v.operationId}, exchange ${v.exchange}): ${v.seen}`;
}

/** The session as JUnit XML: one testsuite, one testcase per rule of rules.ts. */
export function proxyJunit(report: ProxyReport): string {
  const cases = Object.values(rules).map((rule) => {
    const mine = report.violations.filter((v) => v.rule === rule.id);
    const lines = mine.map(violationLine).join('\n');
    const body =
      mine.length === 0
        ? ''
        : rule.severity === 'must'
          ? `\n      <failure message="${xmlEscape(`${mine.length} violation(s): ${mine[0]?.seen ?? ''}`)}" type="must">${xmlEscape(lines)}</failure>\n    `
          : `\n      <system-out>${xmlEscape(`WARN (should): ${lines}`)}</system-out>\n    `;
    return `    <testcase classname="proxy.${xmlEscape(rule.section)}" name="${xmlEscape(`${rule.id}: ${rule.title}`)}" time="0">${body}</testcase>`;
  });
  const failures = Object.values(rules).filter(
    (rule) => rule.severity === 'must' && report.violations.some((v) => v.rule === rule.id),
  ).length;
  const time = (report.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="voice-kit proxy" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time}">`,
    `  <testsuite name="${xmlEscape(`proxy of ${report.upstream}`)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${time}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');

/** The violations kept, by rule: the rule's id, severity and section, and its violations in order. */
function byRule(violations: readonly Violation[]): Map<string, Violation[]> {
  const groups = new Map<string, Violation[]>();
  for (const v of violations) {
    const group = groups.get(v.rule);
    if (group) group.push(v);
    else groups.set(v.rule, [v]);
  }
  // must before should, then the most frequent first, then by id: the same report always reads the same
  return new Map(
    [...groups].sort(
      ([a, va], [b, vb]) =>
        Number(va[0]?.severity === 'should') - Number(vb[0]?.severity === 'should') ||
        vb.length - va.length ||
        a.localeCompare(b),
    ),
  );
}

/**
 * The violations section: a summary table of the rules broken (severity, §, count, first exchange),
 * then every violation kept, under its rule. Read at scale (10,000 exchanges, hundreds of violations),
 * the summary says what is wrong and the lists say where.
 */
function violationsByRule(report: ProxyReport): string[] {
  const lines = ['## Violations by rule', ''];
  if (report.violations.length === 0) return [...lines, 'None.', ''];
  const groups = byRule(report.violations);
  lines.push('| Rule | Severity | § | Count | First exchange |', '|---|---|---|---|---|');
  for (const [rule, vs] of groups)
    lines.push(
      `| [\`${rule}\`](#${anchorOf(rule)}) | ${vs[0]?.severity} | ${vs[0]?.section} | ${vs.length} | ${vs[0]?.exchange} |`,
    );
  if (report.violations.length < report.counts.violations)
    lines.push(
      '',
      `(the first ${report.violations.length} of ${report.counts.violations} violations are kept; the counts above are of those)`,
    );
  lines.push('', '## Violations', '');
  for (const [rule, vs] of groups) {
    lines.push(`### ${rule}`, '', '| Exchange | Operation | Seen |', '|---|---|---|');
    for (const v of vs)
      lines.push(`| ${v.exchange} | ${cell(`${v.operation} (${v.operationId})`)} | ${cell(v.seen)} |`);
    lines.push('');
  }
  return lines;
}

/** The anchor a Markdown renderer (GitHub's) gives the heading `rule`: lower case, dots dropped. */
const anchorOf = (rule: string) => rule.toLowerCase().replace(/[^a-z0-9 -]/g, '');

/** The session as Markdown. */
export function proxyMarkdown(report: ProxyReport): string {
  const c = report.counts;
  const lines = [
    '# voice-kit proxy report',
    '',
    `- Upstream: ${report.upstream}`,
    `- Verdict: ${verdict(report)}`,
    `- Exchanges: ${c.exchanges}; violations: ${c.violations} (${c.must} must, ${c.should} should); upstream errors: ${c.upstreamErrors}`,
    `- Started ${report.startedAt}, ran ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    ...violationsByRule(report),
  ];
  const outside = report.exchanges.filter((e) => e.requestProblems.length > 0);
  lines.push(
    '## Requests outside the contract',
    '',
    'The client’s business, never a violation: the upstream’s answer to them is what is judged.',
    '',
  );
  if (outside.length === 0) lines.push('None.', '');
  else {
    lines.push('| Exchange | Request | Problems |', '|---|---|---|');
    for (const e of outside.slice(0, 500))
      lines.push(`| ${e.id} | ${cell(`${e.method} ${e.path}`)} | ${cell(e.requestProblems.join('\n'))} |`);
    lines.push('');
  }
  lines.push(
    '## Exchanges',
    '',
    '| # | Request | Status | Content-Type | Bytes up / down | Chunks | TTFB ms | Audio s | Violations | Notes |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const e of report.exchanges.slice(0, 1000))
    lines.push(
      `| ${e.id} | ${cell(`${e.method} ${e.path}`)} | ${e.status ?? '–'} | ${cell(e.contentType ?? '')} | ${e.requestBytes} / ${e.responseBytes} | ${e.chunks} | ${e.ttfbMs ?? '–'} | ${e.audioSeconds ?? '–'} | ${e.violations} | ${cell([e.aborted ? `cut: ${e.aborted}` : '', e.upstreamError ?? '', ...e.notes].filter(Boolean).join('\n'))} |`,
    );
  if (report.exchanges.length > 1000)
    lines.push('', `(${report.exchanges.length - 1000} more in proxy.json)`);
  lines.push('');
  return lines.join('\n');
}

/**
 * Writes proxy.json, proxy.junit.xml and proxy.md into `dir`; resolves with their paths.
 *
 * @example
 * await writeProxyReports(proxy.report(), 'reports/proxy');
 */
export async function writeProxyReports(report: ProxyReport, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Array<readonly [string, string]> = [
    ['proxy.json', `${JSON.stringify(report, null, 2)}\n`],
    ['proxy.junit.xml', proxyJunit(report)],
    ['proxy.md', proxyMarkdown(report)],
  ];
  for (const [name, text] of files) writeReportFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}

/** The session's verdict in words: which of the two ways to fail, or the pass. */
function verdict(report: ProxyReport): string {
  if (report.ok) return '**PASS**: no must-rule was violated';
  const why: string[] = [];
  if (report.counts.must > 0) why.push('at least one must-rule was violated');
  if (report.upstreamFailed) why.push(upstreamFailure(report));
  return `**FAIL**: ${why.join('; ')}`;
}

/**
 * Why the upstream failed the session: `3 upstream errors (at most 0 allowed)`, or every exchange was
 * one. The CLI's summary says the same.
 *
 * @example
 * upstreamFailure(report); // 'every exchange (2) was an upstream error: is the upstream right and up?'
 */
export function upstreamFailure(report: ProxyReport): string {
  const { upstreamErrors, exchanges } = report.counts;
  return upstreamErrors === exchanges
    ? `every exchange (${exchanges}) was an upstream error: is the upstream right and up?`
    : `${upstreamErrors} upstream error${upstreamErrors === 1 ? '' : 's'}, past the ${report.maxUpstreamErrors} allowed (--max-upstream-errors)`;
}
