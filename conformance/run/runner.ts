import { errorText } from '../setup/preflight.js';
import { CaseContext, type ConformanceCase } from '../toolkit/context.js';
import type { RunState } from '../toolkit/run-state.js';
import type { CaseInfo, CaseResult, Outcome, ProgressEvent, RunCounts, RunResult } from '../types.js';
import { abortedCleanupLimits, cleanupLimits, cleanupRun, freeUsesNow } from './cleanup.js';
import { type Allowance, orderCases, skipReason } from './select.js';

/** Turn a finished case's findings into its outcome. */
function outcomeOf(c: CaseInfo, ctx: CaseContext, error: string | undefined): Outcome {
  // An observing case records no finding but a server error or the oracle's (context.ts): they count.
  if (c.severity === 'observe') {
    if (ctx.findings.some((f) => f.level === 'must')) return 'fail';
    return ctx.findings.length > 0 ? 'warn' : 'observed';
  }
  if (error !== undefined) return c.severity === 'must' ? 'error' : 'warn';
  if (ctx.findings.some((f) => f.level === 'must')) return 'fail';
  if (ctx.findings.length > 0) return 'warn';
  return 'pass';
}

async function runOne(state: RunState, c: ConformanceCase): Promise<CaseResult> {
  const ctx = new CaseContext(state, c);
  const t0 = performance.now();
  let error: string | undefined;
  try {
    await c.run(ctx);
  } catch (e) {
    error = errorText(e);
    if (c.severity === 'observe') ctx.note(`the probe threw: ${error}`);
  }
  return {
    id: c.id,
    section: c.section,
    severity: c.severity,
    title: c.title,
    ...(c.openQuestion ? { openQuestion: c.openQuestion } : {}),
    outcome: outcomeOf(c, ctx, error),
    findings: ctx.findings,
    observations: ctx.observations,
    notes: ctx.notes,
    ...(error !== undefined && c.severity !== 'observe' ? { error } : {}),
    durationMs: Math.round(performance.now() - t0),
  };
}

function skipped(c: CaseInfo, reason: string): CaseResult {
  return {
    id: c.id,
    section: c.section,
    severity: c.severity,
    title: c.title,
    ...(c.openQuestion ? { openQuestion: c.openQuestion } : {}),
    outcome: 'skip',
    findings: [],
    observations: [],
    notes: [],
    skipReason: reason,
    durationMs: 0,
  };
}

/** Tally outcomes. */
export function countOutcomes(results: readonly CaseResult[]): RunCounts {
  const n = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return {
    total: results.length,
    pass: n('pass'),
    fail: n('fail'),
    warn: n('warn'),
    skip: n('skip'),
    observed: n('observed'),
    error: n('error'),
  };
}

/**
 * Run cases against a prepared state: select, skip what cannot run, run the rest one by one, then
 * delete every voice the run created (also after an abort) and report the cost.
 */
export async function runCases(
  state: RunState,
  cases: readonly ConformanceCase[],
  opts: {
    readonly allowance: Allowance;
    readonly only: readonly string[];
    /** The run started the mock it tests (for the report). */
    readonly embeddedMock?: boolean;
    /** Work before the first case (e.g. a fresh upload window on the kit's mock); returns what it did. */
    readonly prepare?: () => Promise<string[]>;
    /** Work after the cleanup, also after an abort (e.g. fresh upload quotas on the kit's mock); returns what it did. */
    readonly finish?: () => Promise<string[]>;
    readonly onProgress?: (e: ProgressEvent) => void;
  },
): Promise<RunResult> {
  const started = new Date(state.now()).toISOString();
  const t0 = performance.now();
  const progress = opts.onProgress ?? (() => undefined);
  const chosen = orderCases(cases, opts.only);
  const embeddedMock = opts.embeddedMock ?? false;
  const { baseUrl, prefix: runPrefix, targetIsMock } = state;
  progress({ type: 'start', total: chosen.length, baseUrl, runPrefix, embeddedMock, targetIsMock });
  for (const message of (await opts.prepare?.()) ?? []) progress({ type: 'info', message });
  const freeBefore = await freeUsesNow(state);
  const results: CaseResult[] = [];
  let aborted = false;
  for (const [index, c] of chosen.entries()) {
    if (state.signal?.aborted) {
      aborted = true;
      break;
    }
    progress({ type: 'case-start', id: c.id, index, total: chosen.length });
    const reason = skipReason(c, opts.allowance);
    const result = reason ? skipped(c, reason) : await runOne(state, c);
    if (state.signal?.aborted && result.error) {
      aborted = true;
      break;
    }
    results.push(result);
    progress({ type: 'case-end', result, index, total: chosen.length });
  }
  // The cleanup's requests are no case's: the oracle has compared all it will.
  await state.oracle?.close();
  // Every delete so far was a case's; the cleanup's come after.
  const voicesDeletedByCases = state.voicesDeleted;
  // Asked to finish: the cleanup and the last count get a short grace, not the usual minute.
  const asked = state.signal?.aborted === true;
  const graceEnd = performance.now() + abortedCleanupLimits.timeMs;
  const cleanup = await cleanupRun(state, asked ? abortedCleanupLimits : cleanupLimits);
  progress({ type: 'cleanup', deleted: cleanup.deleted, failures: cleanup.failures.length });
  const freeAfter = await freeUsesNow(state, asked ? Math.max(1, graceEnd - performance.now()) : undefined);
  for (const message of (await opts.finish?.()) ?? []) progress({ type: 'info', message });
  const counts = countOutcomes(results);
  return {
    ok: counts.fail === 0 && counts.error === 0 && !aborted,
    aborted,
    baseUrl: state.baseUrl,
    embeddedMock,
    targetIsMock,
    runPrefix: state.prefix,
    startedAt: started,
    durationMs: Math.round(performance.now() - t0),
    results,
    counts,
    billing: {
      remainingFreeCloneCountBefore: freeBefore,
      remainingFreeCloneCountAfter: freeAfter,
      voicesCreated: state.voicesCreated,
      voicesDeletedByCases,
      uploads: state.uploads,
      voicesDeleted: cleanup.deleted,
      voicesRemaining: cleanup.remaining,
      cleanupFailures: cleanup.failures,
    },
  };
}
