/**
 * An exploration's reports, like the scripted suite's: explore.json (everything), explore.junit.xml
 * (one test case per rule judged, failed when violated), explore.md (what was spent, covered, found),
 * and on a violation the reproduction (reproduction.ts). Also the terminal summary.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeReportFile } from '../../common/report-file.js';
import { xmlEscape } from '../../common/xml-escape.js';
import { allRules } from '../../judge/index.js';
import { allOracleRules } from '../../oracle/index.js';
import { exploreRules } from './explore-rules.js';
import type { ExploreResult } from './options.js';
import type { ReplayResult } from './replay.js';
import { reproductionOf, writeReproduction } from './reproduction.js';

/** Every rule an exploration judges by: the judge's and the explorer's own. */
export const exploredRules = [
  ...allRules.map((r) => ({ id: r.id, section: r.section, title: r.title })),
  ...allOracleRules.map((r) => ({ id: r.id, section: r.section, title: r.title })),
  ...Object.values(exploreRules),
];

const spentLine = (r: ExploreResult) =>
  `Spent: ${r.spent.chars} of ${r.limits.chars} characters, ${r.spent.uploads} of ${r.limits.uploads} uploads, ${r.spent.creations} of ${r.limits.creations} creations, ${(r.durationMs / 1000).toFixed(1)} of ${r.limits.maxTimeSeconds} s`;

/** The lines the terminal prints at the end. */
export function exploreSummary(r: ExploreResult): string {
  const lines = [
    `Explored with seed ${r.seed}: ${r.sequences} sequences, ${r.requests} requests (${Object.entries(
      r.operations,
    )
      .map(([op, n]) => `${op} ${n}`)
      .join(', ')})`,
    spentLine(r),
    `Cleanup: ${r.cleanup.deleted} voice(s) deleted by the sweep, ${r.cleanup.left} left${r.cleanup.failures.length ? `; ${r.cleanup.failures.join('; ')}` : ''}`,
  ];
  const coverage = [`State coverage (${coverageLine(r)}):`, ...r.coverage.map((l) => `  ${l}`)];
  if (!r.found) return [...lines, 'PASS: no sequence broke a must rule', ...coverage].join('\n');
  const sent = r.found.steps.filter((s) => s.status !== undefined);
  return [
    ...lines,
    ...r.found.verdicts.map((v) => `FAIL ${v.rule} (${v.section}): ${v.seen}`),
    `The shortest sequence found (${sent.length} requests${r.found.shrinkCut ? '; shrinking stopped at the budget or --max-time' : ''}):`,
    ...sent.map((s, i) => `  ${i + 1}. ${s.step.label} → HTTP ${s.status}`),
    ...coverage,
  ].join('\n');
}

/** `9 of 15 states reached`. */
const coverageLine = (r: ExploreResult) =>
  `${r.coverage.filter((l) => l.startsWith('[x]')).length} of ${r.coverage.length} states reached`;

function junit(r: ExploreResult): string {
  const violated = new Map((r.found?.verdicts ?? []).map((v) => [v.rule, v]));
  const cases = exploredRules.map((rule) => {
    const v = violated.get(rule.id);
    const name = `${xmlEscape(rule.id)}" classname="explore.${xmlEscape(rule.section)}`;
    return v
      ? `    <testcase name="${name}"><failure message="${xmlEscape(v.seen)}">${xmlEscape(`${rule.title}\nexchange ${v.exchange}: ${v.seen}`)}</failure></testcase>`
      : `    <testcase name="${name}"/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="voice-kit explore" tests="${cases.length}" failures="${violated.size}">`,
    `  <testsuite name="explore seed ${r.seed}" tests="${cases.length}" failures="${violated.size}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function markdown(r: ExploreResult): string {
  const violated = new Set((r.found?.verdicts ?? []).map((v) => v.rule));
  return [
    `# Exploration of ${r.baseUrl}${r.embeddedMock ? ' (the embedded mock)' : ''}`,
    '',
    `Seed ${r.seed} (\`--seed ${r.seed}\` repeats it). ${r.found ? '**FAIL**' : '**PASS**'}.`,
    '',
    spentLine(r),
    '',
    '## Operations',
    '',
    '| operation | requests |',
    '|---|---|',
    ...Object.entries(r.operations).map(([op, n]) => `| ${op} | ${n} |`),
    '',
    '## State coverage',
    '',
    `The abstract states the sequences reached, as the oracle saw them (${coverageLine(r)}; the count is how often):`,
    '',
    ...r.coverage.map((l) => `- ${l}`),
    '',
    '## Rules judged',
    '',
    '| rule | section | result |',
    '|---|---|---|',
    ...exploredRules.map(
      (rule) => `| \`${rule.id}\` | ${rule.section} | ${violated.has(rule.id) ? 'FAIL' : 'held'} |`,
    ),
    '',
    ...(r.found
      ? [
          '## The violation',
          '',
          '```text',
          exploreSummary(r)
            .split('\n')
            .slice(3, -(r.coverage.length + 1))
            .join('\n'),
          '```',
          '',
          'Replay: `voice-kit conformance --base-url … --replay explore-repro.json`; or run `explore-repro.sh`.',
          '',
        ]
      : []),
  ].join('\n');
}

/**
 * The report files of `r` (name → text): explore.json, explore.junit.xml, explore.md. What a process
 * stopped at once writes synchronously (the reproduction's recordings need the fixtures, read later).
 */
export function exploreReportFiles(r: ExploreResult): [string, string][] {
  return [
    ['explore.json', `${JSON.stringify(r, null, 2)}\n`],
    ['explore.junit.xml', junit(r)],
    ['explore.md', markdown(r)],
  ];
}

/** Write the reports (and the reproduction of a violation) into `dir`; returns the paths. */
export async function writeExploreReports(r: ExploreResult, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = exploreReportFiles(r);
  for (const [name, text] of files) writeReportFile(join(dir, name), text);
  const paths = files.map(([name]) => join(dir, name));
  if (!r.found) return paths;
  return [
    ...paths,
    ...(await writeReproduction(
      reproductionOf(r.seed, r.baseUrl, r.found.steps, r.found.verdicts, r.found.acceptedTextLength),
      dir,
    )),
  ];
}

/** The last line of a replay: what it means for the deployment. */
export function replayVerdictLine(r: ReplayResult): string {
  if (r.outcome === 'pass') return 'PASS: the reproduction no longer deviates';
  if (r.outcome === 'fail') return `FAIL: still deviates (${r.verdicts.map((v) => v.rule).join(', ')})`;
  if (r.outcome === 'unmet') return `NOT REPRODUCED: ${r.reason ?? 'a precondition does not hold'}`;
  if (r.outcome === 'network') return `NO ANSWER: ${r.reason ?? 'a request got no answer'}`;
  return 'INTERRUPTED: the replay was stopped';
}

/** Write replay.json and replay.md into `dir`; returns the paths. */
export async function writeReplayReports(r: ReplayResult, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const md = [
    `# Replay of ${r.file} against ${r.baseUrl}`,
    '',
    `**${replayVerdictLine(r)}**`,
    '',
    '| # | step | answer |',
    '|---|---|---|',
    ...r.steps.map(
      (s, i) =>
        `| ${i + 1} | ${s.step.label.replaceAll('|', '\\|')} | ${s.status === undefined ? `not sent (${s.skipped}${s.failure ? `: ${s.failure}` : ''})` : `HTTP ${s.status}`} |`,
    ),
    '',
    ...r.verdicts.map((v) => `- FAIL \`${v.rule}\` (${v.section}): ${v.seen}`),
    `Cleanup: ${r.cleanup.deleted} voice(s) deleted by the sweep, ${r.cleanup.left} left${r.cleanup.failures.length ? `; ${r.cleanup.failures.join('; ')}` : ''}`,
    '',
  ].join('\n');
  const files: [string, string][] = [
    ['replay.json', `${JSON.stringify(r, null, 2)}\n`],
    ['replay.md', md],
  ];
  for (const [name, text] of files) writeReportFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
