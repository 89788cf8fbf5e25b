/**
 * The abstract states a run reached, as the oracle saw them: how many voices a scope held against the
 * page size of a list that showed them, the free uses left after each creation, deletes between lists,
 * cursors held across writes, the first paid creation. The explorer steers towards the states not yet
 * reached and prints them all at the end.
 */

/** Every state the explorer aims at, in the order it prints them. */
export const coverageStates = [
  'voices: 0',
  'voices: 1',
  'voices: page size - 1',
  'voices: exactly the page size',
  'voices: a multiple (2+) of the page size',
  'voices: page size + 1',
  'voices: more than 20',
  'free uses left: 3',
  'free uses left: 2',
  'free uses left: 1',
  'free uses left: 0',
  'creation past 0 free uses (paid)',
  'a delete between lists',
  'a cursor page after a write',
  'a refused save seen by a list',
  'a save of an id that exists',
  'a save by a key without Voice Cloning',
] as const;

export type CoverageState = (typeof coverageStates)[number];

/** The states that a list of `size` seeing `n` voices reaches. */
export function listStates(n: number, size: number): CoverageState[] {
  const out: CoverageState[] = [];
  if (n === 0) out.push('voices: 0');
  if (n === 1) out.push('voices: 1');
  if (size > 1 && n === size - 1) out.push('voices: page size - 1');
  if (n === size) out.push('voices: exactly the page size');
  if (n >= 2 * size && n % size === 0) out.push('voices: a multiple (2+) of the page size');
  if (n === size + 1) out.push('voices: page size + 1');
  if (n > 20) out.push('voices: more than 20');
  return out;
}

/** The state a creation leaves: free uses left, or a paid one. */
export function creationState(leftBefore: number): CoverageState {
  return leftBefore <= 0 ? 'creation past 0 free uses (paid)' : freeUsesState(leftBefore - 1);
}

/** The state a list showing `left` free uses is in (3 stands for 3 or more). */
export function freeUsesState(left: number): CoverageState {
  return left >= 3
    ? 'free uses left: 3'
    : left === 2
      ? 'free uses left: 2'
      : left === 1
        ? 'free uses left: 1'
        : 'free uses left: 0';
}

/** States reached, counted. */
export class Coverage {
  readonly reached = new Map<CoverageState, number>();

  note(state: CoverageState): void {
    this.reached.set(state, (this.reached.get(state) ?? 0) + 1);
  }

  merge(other: Coverage): void {
    for (const [s, n] of other.reached) this.reached.set(s, (this.reached.get(s) ?? 0) + n);
  }

  missing(): CoverageState[] {
    return coverageStates.filter((s) => !this.reached.has(s));
  }

  /** One line per state: `[x] voices: 1 (4)` or `[ ] voices: more than 20`. */
  lines(): string[] {
    return coverageStates.map((s) => {
      const n = this.reached.get(s);
      return n ? `[x] ${s} (${n})` : `[ ] ${s}`;
    });
  }
}
