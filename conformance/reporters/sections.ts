import type { CaseResult } from '../types.js';

/**
 * The section a result is grouped under: the first `§N` or `§N.M` it cites.
 *
 * @example
 * sectionOf('§4.2 rule 1, §7.2') // '§4.2'
 */
export function sectionOf(section: string): string {
  return /§\d+(?:\.\d+)?/.exec(section)?.[0] ?? 'other';
}

function sectionKey(s: string): number[] {
  return s
    .replace('§', '')
    .split('.')
    .map((x) => Number.parseInt(x, 10) || 0);
}

/** Results grouped by section, sections in spec order. */
export function bySection(results: readonly CaseResult[]): Array<readonly [string, CaseResult[]]> {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results) {
    const key = sectionOf(r.section);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.entries()].sort(([a], [b]) => {
    const [ka, kb] = [sectionKey(a), sectionKey(b)];
    return (ka[0] ?? 0) - (kb[0] ?? 0) || (ka[1] ?? 0) - (kb[1] ?? 0);
  });
}

/** Every observation of a run, grouped by open-question id, in first-seen order. */
export function observationsByQuestion(results: readonly CaseResult[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of results) {
    for (const o of r.observations) out.set(o.question, [...(out.get(o.question) ?? []), o.value]);
  }
  return out;
}
