/**
 * The one budget of an exploration, shrinking and replays included: every step asks it before it is
 * sent, and a step that would spend more than is left is skipped, never sent. Time is a budget too.
 */
import type { Cost } from './step.js';

export interface BudgetLimits {
  readonly chars: number;
  readonly uploads: number;
  readonly creations: number;
  /** Milliseconds from the start. */
  readonly maxTimeMs: number;
}

export type Spent = { chars: number; uploads: number; creations: number };

/**
 * @example
 * const budget = new Budget({ chars: 20_000, uploads: 12, creations: 0, maxTimeMs: 90_000 });
 * if (budget.take(costOf(step))) await send(step);
 */
export class Budget {
  readonly spent: Spent = { chars: 0, uploads: 0, creations: 0 };
  /** Steps skipped because they would have spent more than was left, by what ran out. */
  readonly refused: Spent = { chars: 0, uploads: 0, creations: 0 };
  private readonly started: number;
  /** What the current tier may spend at most, of each part (the rest is kept for later tiers). */
  tierShare: Spent = { chars: 1, uploads: 1, creations: 1 };

  constructor(
    readonly limits: BudgetLimits,
    private readonly clock: () => number = () => performance.now(),
    /** When the time started (default now): an exploration counts its setup too. */
    started?: number,
  ) {
    this.started = started ?? clock();
  }

  /** Milliseconds left before --max-time. */
  timeLeftMs(): number {
    return Math.max(0, this.limits.maxTimeMs - (this.clock() - this.started));
  }

  outOfTime(): boolean {
    return this.timeLeftMs() <= 0;
  }

  /** Whether nothing billable fits any more (free steps may still run). */
  exhausted(): boolean {
    return (
      this.spent.chars >= this.limits.chars &&
      this.spent.uploads >= this.limits.uploads &&
      this.spent.creations >= this.limits.creations
    );
  }

  /** Reserve the cost, or refuse (and spend nothing) when any part exceeds what is left. */
  take(cost: Cost): boolean {
    const over = (['chars', 'uploads', 'creations'] as const).filter(
      (k) => cost[k] > 0 && this.spent[k] + cost[k] > Math.floor(this.limits[k] * this.tierShare[k]),
    );
    if (over.length > 0 || this.outOfTime()) {
      for (const k of over) this.refused[k] += 1;
      return false;
    }
    this.spent.chars += cost.chars;
    this.spent.uploads += cost.uploads;
    this.spent.creations += cost.creations;
    return true;
  }
}
