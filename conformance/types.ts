/**
 * The vocabulary every folder of conformance/ shares: what a case is as data, its needs, and what a
 * run returns (results, counts, billing, progress events). Imports nothing, so that no folder's import
 * of it can close a circle (conformance/test/layout.test.ts checks the layout).
 */

/**
 * `must`: the spec states it; a failure fails the run. `should`: a strong reading; a failure warns.
 * `observe`: the spec says "not shown"; the case records what the deployment does and never fails.
 */
export type Severity = 'must' | 'should' | 'observe';

/** Extra API keys a case may need, beyond the main key. */
export type ExtraKeyName = 'noClone' | 'otherProject' | 'otherEnv' | 'otherOrg';

/** Costly groups a run leaves out unless asked for with `include`. */
export type IncludeName = 'rate-limit' | 'large-upload' | 'many-voices';
export const includeNames: readonly IncludeName[] = ['rate-limit', 'large-upload', 'many-voices'];

/** What a case needs before it can run; a case whose needs are not met is skipped with the reason. */
export interface CaseNeeds {
  readonly keys?: readonly ExtraKeyName[];
  /** The case creates voices on purpose (a clone use or a charge each). */
  readonly billable?: boolean;
  readonly include?: readonly IncludeName[];
  /** A publicly reachable URL of a reference recording (`--reference-url`; the embedded mock gets one). */
  readonly referenceUrl?: boolean;
  /** A promise of the kit's mock only (byte determinism...), not of the spec. */
  readonly mockOnly?: boolean;
}

/** What a case proves, for the coverage check: documented error codes and contract limits. */
export interface CaseCovers {
  readonly codes?: readonly number[];
  readonly limits?: readonly string[];
}

/**
 * What a conformance case is, as data: everything but its `run` function (ConformanceCase, in
 * toolkit/context.ts, adds it). Selection, skipping and the reports need no more.
 */
export interface CaseInfo {
  /** Stable id, dotted: `<area>.<topic>.<rule>`. */
  readonly id: string;
  /** Spec section(s) it checks, e.g. `§4.1`. The first one groups the reports. */
  readonly section: string;
  readonly severity: Severity;
  readonly title: string;
  /** The `x-open-question` id an observe case answers. */
  readonly openQuestion?: string;
  readonly needs?: CaseNeeds;
  readonly covers?: CaseCovers;
  /** Cases that must see the account untouched by the run run first (the free-use accounting). */
  readonly runFirst?: boolean;
  /** Cases that exhaust a quota run last (the rate-limit case). */
  readonly runLast?: boolean;
}

/** A failed check. `level` is the severity it counts at (a must case may hold should-level checks). */
export interface Finding {
  readonly level: 'must' | 'should';
  readonly message: string;
  /** JSON pointer into the response body, for schema violations. */
  readonly pointer?: string;
  /** The request that produced it, e.g. `POST /v1/files/upload`. */
  readonly request?: string;
}

/** What the deployment did where the spec is silent. */
export interface Observation {
  readonly question: string;
  readonly value: string;
}

export type Outcome = 'pass' | 'fail' | 'warn' | 'skip' | 'observed' | 'error';

/** The result of one case, as a value. */
export interface CaseResult {
  readonly id: string;
  readonly section: string;
  readonly severity: Severity;
  readonly title: string;
  readonly openQuestion?: string;
  readonly outcome: Outcome;
  readonly findings: readonly Finding[];
  readonly observations: readonly Observation[];
  readonly notes: readonly string[];
  readonly skipReason?: string;
  /** Set when the case threw: the message of the error. */
  readonly error?: string;
  readonly durationMs: number;
}

export interface RunCounts {
  readonly total: number;
  readonly pass: number;
  readonly fail: number;
  readonly warn: number;
  readonly skip: number;
  readonly observed: number;
  readonly error: number;
}

/** Voice creation bookkeeping of a run: what it cost and what it cleaned up. */
export interface RunBilling {
  readonly remainingFreeCloneCountBefore: number | null;
  readonly remainingFreeCloneCountAfter: number | null;
  readonly voicesCreated: number;
  /** Successful uploads the run made (they count against the upload rate limit of §8). */
  readonly uploads: number;
  /** Deleted by the cases themselves (the delete cases remove voices they created). */
  readonly voicesDeletedByCases: number;
  /** Deleted by the cleanup at the end of the run. */
  readonly voicesDeleted: number;
  /** Voices with the run prefix still listed after the cleanup: 0 unless the deployment refused deletes. */
  readonly voicesRemaining: number;
  readonly cleanupFailures: readonly string[];
}

/** Everything a run found, as values. `ok` is true only when no must case failed or errored. */
export interface RunResult {
  readonly ok: boolean;
  readonly aborted: boolean;
  readonly baseUrl: string;
  /** The run started the mock it tested (no baseUrl was given). */
  readonly embeddedMock: boolean;
  /**
   * The run treated the target as voice-kit's mock, so the mock-only cases ran: the embedded mock, or
   * voice-kit's mock found behind baseUrl (its control API answers), unless `targetIsMock` said otherwise.
   */
  readonly targetIsMock: boolean;
  readonly runPrefix: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly results: readonly CaseResult[];
  readonly counts: RunCounts;
  readonly billing: RunBilling;
}

/** Progress events, for a terminal or a test. */
export type ProgressEvent =
  | {
      readonly type: 'start';
      readonly total: number;
      readonly baseUrl: string;
      readonly runPrefix: string;
      readonly embeddedMock: boolean;
      readonly targetIsMock: boolean;
    }
  | { readonly type: 'case-start'; readonly id: string; readonly index: number; readonly total: number }
  | { readonly type: 'case-end'; readonly result: CaseResult; readonly index: number; readonly total: number }
  | { readonly type: 'cleanup'; readonly deleted: number; readonly failures: number }
  | { readonly type: 'info'; readonly message: string };
