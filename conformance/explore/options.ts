/** The options and the result of an exploration (`voice-kit conformance --explore`), as types and defaults. */
import type { Verdict } from '../../judge/index.js';
import type { FetchLike } from '../toolkit/http.js';
import type { ExtraKeyName } from '../types.js';
import type { Spent } from './budget.js';
import type { StepRecord } from './sequence.js';

export interface ExploreOptions {
  /** The deployment; omitted: the kit's mock, started for the exploration. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly keys?: { readonly [K in ExtraKeyName]?: string };
  /** Without it no voice is created (`budgetCreations` is 0). */
  readonly allowBillable?: boolean;
  /** Characters synthesized, counted before sending (default 20,000). */
  readonly budgetChars?: number;
  /** Upload requests (default 20; §8 allows 30 per user per hour). */
  readonly budgetUploads?: number;
  /** Save requests (default 20 with allowBillable, else 0; more than 0 needs allowBillable). */
  readonly budgetCreations?: number;
  /** Seconds the exploration may take, shrinking included (default 90). */
  readonly maxTimeSeconds?: number;
  /** Makes the sequences repeatable; default a random one, reported. */
  readonly seed?: number;
  readonly fetch?: FetchLike;
  /**
   * Ask the exploration to finish: requests in flight are cancelled, no sequence starts, the run's
   * voices are swept within a short grace, and it resolves with what was judged so far.
   */
  readonly signal?: AbortSignal;
  /** Seconds each request may take at most (default 30); never more than what is left of --max-time. */
  readonly requestTimeoutSeconds?: number;
  /** Voice ids start with it (default `vk_<6 hex>_`). */
  readonly runPrefix?: string;
  /** One line per event, for the terminal. */
  readonly onProgress?: (line: string) => void;
  /**
   * Called once the exploration has started, with a function that answers what was judged so far as
   * a result (for reports written at once when the process must quit before the exploration ends).
   */
  readonly onStarted?: (soFar: () => ExploreResult) => void;
}

export const exploreDefaults = {
  budgetChars: 20_000,
  budgetUploads: 20,
  billableCreations: 20,
  maxTimeSeconds: 90,
} as const;

/** What a found violation is: its verdicts, and the shortest sequence that showed it. */
export interface Found {
  readonly verdicts: readonly Verdict[];
  readonly steps: readonly StepRecord[];
  /** Sequences fast-check tried while shrinking. */
  readonly shrinks: number;
  /** Shrinking stopped because the budget or --max-time ran out. */
  readonly shrinkCut: boolean;
  /** The longest text seen accepted before it (for the replay). */
  readonly acceptedTextLength: number;
}

export interface ExploreResult {
  readonly ok: boolean;
  readonly seed: number;
  readonly baseUrl: string;
  readonly embeddedMock: boolean;
  readonly limits: Spent & { readonly maxTimeSeconds: number };
  readonly spent: Spent;
  /** Steps skipped because the budget would have been exceeded, by what ran out. */
  readonly refused: Spent;
  readonly sequences: number;
  readonly requests: number;
  /** Step labels of the sequences, in order (capped): the same seed gives the same trace against the same state. */
  readonly trace: readonly string[];
  /** Requests sent per operation, and the rules whose exchanges were judged. */
  readonly operations: Readonly<Record<string, number>>;
  readonly found: Found | undefined;
  readonly cleanup: { readonly deleted: number; readonly left: number; readonly failures: readonly string[] };
  readonly durationMs: number;
  readonly keyNames: readonly string[];
  /** The abstract states the oracle saw reached, one line each (`[x] voices: 1 (4)`, `[ ] voices: more than 20`). */
  readonly coverage: readonly string[];
}
