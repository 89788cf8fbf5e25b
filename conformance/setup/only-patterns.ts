/**
 * The case id patterns of `only` (`--only`): which ids a pattern selects, the patterns that select
 * none, and the ids nearest to such a pattern, as a hint.
 */

import { editDistance } from '../../common/did-you-mean.js';
import type { CaseInfo } from '../types.js';

/** `upload.*`, `*flac*` or a plain substring: does a case id match one of the patterns? */
export function matchesOnly(id: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => {
    if (!p.includes('*')) return id.includes(p);
    const re = new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`);
    return re.test(id);
  });
}

/**
 * The patterns that select no case: a typo in `only` must not shrink a run silently (a run of no case
 * passes).
 *
 * @example
 * unmatchedPatterns(allCases, ['upload.*', 'uplaod.*']); // ['uplaod.*']
 */
export function unmatchedPatterns(cases: readonly CaseInfo[], patterns: readonly string[]): string[] {
  return patterns.filter((p) => !cases.some((c) => matchesOnly(c.id, [p])));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The ids nearest to a pattern that selects nothing, as a hint. A pattern is a prefix or a substring
 * (`uplaod.*`, `*flca*`), so each id is scored by its closest stretch of the pattern's length.
 */
export function nearestIds(cases: readonly CaseInfo[], pattern: string): string[] {
  const bare = pattern.replace(/\*/g, '').toLowerCase();
  const score = (id: string) => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i + bare.length <= Math.max(id.length, bare.length); i++)
      best = Math.min(best, editDistance(bare, id.slice(i, i + bare.length)));
    return best;
  };
  const scored = cases.map((c) => ({ id: c.id, d: score(c.id) }));
  // Only the best-scoring ids, and only when they are close: a far guess misleads more than none.
  const best = Math.min(...scored.map(({ d }) => d));
  if (best > Math.max(2, Math.floor(bare.length / 3))) return [];
  return scored
    .filter(({ d }) => d === best)
    .slice(0, 3)
    .map(({ id }) => id);
}
