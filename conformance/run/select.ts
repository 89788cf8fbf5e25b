import { matchesOnly } from '../setup/only-patterns.js';
import type { RunKeys } from '../toolkit/run-state.js';
import type { CaseInfo, IncludeName } from '../types.js';

/** What a run allows, for deciding which cases can run. */
export interface Allowance {
  readonly keys: RunKeys;
  readonly allowBillable: boolean;
  readonly include: readonly IncludeName[];
  readonly targetIsMock: boolean;
  /** A reference URL is known (`--reference-url`, or the runner serves one to the embedded mock). */
  readonly referenceUrl?: boolean;
}

/**
 * Why a case cannot run under this allowance, or undefined when it can.
 *
 * @example
 * skipReason(c, { keys: { main: 'k' }, allowBillable: false, include: [], targetIsMock: false })
 * // 'creates voices: needs --allow-billable'
 */
export function skipReason(c: CaseInfo, a: Allowance): string | undefined {
  const n = c.needs ?? {};
  if (n.mockOnly && !a.targetIsMock) return "a promise of the kit's mock only; the target is not the mock";
  const missingKeys = (n.keys ?? []).filter((k) => !a.keys[k]);
  if (missingKeys.length > 0) {
    const flags = missingKeys.map((k) => `--key-${k.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`);
    return `needs the key(s) ${missingKeys.join(', ')} (${flags.join(', ')})`;
  }
  if (n.billable && !a.allowBillable)
    return 'creates voices (a free use or a charge each): needs --allow-billable';
  if (n.referenceUrl && !a.referenceUrl)
    return 'needs --reference-url (a publicly reachable http(s) URL of a 3–60 s recording)';
  const missingIncludes = (n.include ?? []).filter((i) => !a.include.includes(i));
  if (missingIncludes.length > 0) return `opt-in: needs --include ${missingIncludes.join(',')}`;
  return undefined;
}

/**
 * Cases selected by `only`: the free-use accounting first (before any other upload or creation of the
 * run), the quota-exhausting ones last.
 */
export function orderCases<C extends CaseInfo>(cases: readonly C[], only: readonly string[]): C[] {
  const chosen = cases.filter((c) => matchesOnly(c.id, only));
  return [
    ...chosen.filter((c) => c.runFirst && !c.runLast),
    ...chosen.filter((c) => !c.runFirst && !c.runLast),
    ...chosen.filter((c) => c.runLast),
  ];
}
