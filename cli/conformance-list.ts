/** `voice-kit conformance --list` and the hint for an --only pattern that selects nothing. */

import { matchesOnly, unmatchedPatterns } from '../conformance/run/select.js';
import { nearestIds } from '../conformance/setup/options-check.js';
import type { ConformanceCase } from '../conformance/types.js';

/** What a case needs beyond the main key, in the words of the flags that provide it. */
function needsText(c: ConformanceCase): string {
  const n = c.needs ?? {};
  return [
    ...(n.billable ? ['--allow-billable'] : []),
    ...(n.keys ?? []).map((k) => `--key-${k.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`),
    ...(n.include ?? []).map((i) => `--include ${i}`),
    ...(n.mockOnly ? ['embedded mock only'] : []),
  ].join(', ');
}

/**
 * One line per case the patterns select: id, section, severity, title, and what it needs.
 *
 * @example
 * caseList(allCases, ['upload.extension.*']); // ['upload.extension.flac-refused  §4.1  must  ...', ...]
 */
export function caseList(cases: readonly ConformanceCase[], only: readonly string[]): string[] {
  const chosen = cases.filter((c) => matchesOnly(c.id, only));
  const idWidth = Math.max(...chosen.map((c) => c.id.length));
  const sectionWidth = Math.max(...chosen.map((c) => c.section.length));
  return chosen.map((c) => {
    const needs = needsText(c);
    return `${c.id.padEnd(idWidth)}  ${c.section.padEnd(sectionWidth)}  ${c.severity.padEnd(7)}  ${c.title}${needs ? ` [needs ${needs}]` : ''}`;
  });
}

/**
 * A sentence for every pattern that selects no case, with the nearest ids and how to see them all.
 *
 * @example
 * onlyProblems(allCases, ['uplaod.*'], '--only'); // ['--only "uplaod.*" matches no case id (nearest: ...); ...']
 */
export function onlyProblems(
  cases: readonly ConformanceCase[],
  only: readonly string[],
  source: string,
): string[] {
  return unmatchedPatterns(cases, only).map((p) => {
    const near = nearestIds(cases, p);
    return `${source} ${JSON.stringify(p)} matches no case id${near.length > 0 ? ` (nearest: ${near.join(', ')})` : ''}; voice-kit conformance --list prints every id`;
  });
}
