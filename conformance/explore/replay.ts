/**
 * --replay FILE: run a reproduction again, in order, with a judge of its own and through a budget like
 * an exploration's. First its preconditions (preconditions.ts): a replay that cannot start from the
 * visible state the verdict depended on says so and judges nothing. Then the steps; a step the budget
 * refuses or that lacks a value from an earlier answer means the reproduction could not be run as
 * written (`unmet`), a request with no answer means the network failed (`network`); otherwise its
 * verdicts say whether the deployment still deviates (`fail`) or no longer does (`pass`).
 */
import type { Verdict } from '../../judge/index.js';
import { errorText } from '../setup/preflight.js';
import { Budget, type Spent } from './budget.js';
import { deleteCreated, sweepRun } from './cleanup.js';
import { cleanupReserveMs, Deadline, sweepMargin } from './deadline.js';
import type { ExploreOptions } from './options.js';
import { exploreOracle } from './oracle-link.js';
import { unmetPrecondition } from './preconditions.js';
import { readReproduction } from './repro-schema.js';
import { keyScopes, Sequence, type StepRecord } from './sequence.js';
import { limitsOf, prepare } from './setup.js';

/** How a replay ended. */
export type ReplayOutcome = 'pass' | 'fail' | 'unmet' | 'network' | 'aborted';

export interface ReplayResult {
  /** The deployment no longer deviates: every step was sent from the recorded state, no must verdict. */
  readonly ok: boolean;
  readonly outcome: ReplayOutcome;
  /** For `unmet` and `network`: what did not hold, or which request got no answer and why, in one line. */
  readonly reason?: string;
  readonly file: string;
  readonly baseUrl: string;
  readonly verdicts: readonly Verdict[];
  /** The rules of the reproduction seen again. */
  readonly again: readonly string[];
  readonly steps: readonly StepRecord[];
  readonly spent: Spent;
  readonly cleanup: { readonly deleted: number; readonly left: number; readonly failures: readonly string[] };
}

/** Why a step was not sent, in words, or undefined when it was. */
function notSent(record: StepRecord, n: number): string | undefined {
  const step = `step ${n} (${record.step.label})`;
  if (record.skipped === 'budget')
    return `${step} was not sent: the budget refused it (raise --budget-chars, --budget-uploads or --budget-creations, or --max-time)`;
  if (record.skipped === 'missing-value')
    return `${step} was not sent: the earlier answer it takes a value from gave none`;
  return undefined;
}

/**
 * Run the steps in order until a must verdict, a step not sent or a request without an answer. A page
 * after one that now says it is the last is not sent, and is no unmet step: the walk ended there.
 */
async function runSteps(seq: Sequence, steps: readonly StepRecord['step'][]) {
  /** Pages of a walk the deployment now ends earlier (a fixed deployment gives no cursor to them). */
  const walkEnded = new Set<number>();
  for (const [i, step] of steps.entries()) {
    const record = await seq.run(step);
    const from = step.op === 'listVoices' && typeof step.cursor === 'object' ? step.cursor.from : undefined;
    if (
      record.skipped === 'missing-value' &&
      from !== undefined &&
      (walkEnded.has(from) || seq.records[from]?.data?.has_more === false)
    ) {
      walkEnded.add(i);
      continue;
    }
    if (record.failure !== undefined)
      return {
        outcome: 'network' as const,
        reason: `step ${i + 1} (${step.label}): no answer: ${record.failure}`,
      };
    const unsent = notSent(record, i + 1);
    if (unsent) return { outcome: 'unmet' as const, reason: unsent };
    if (record.verdicts.some((v) => v.severity === 'must')) return { outcome: 'fail' as const };
  }
  return { outcome: 'pass' as const };
}

/**
 * @example
 * const r = await replayReproduction('reports/conformance/explore-repro.json', { baseUrl, apiKey, allowBillable: true });
 * process.exitCode = { pass: 0, fail: 1, unmet: 4, network: 5, aborted: 130 }[r.outcome];
 */
export async function replayReproduction(file: string, options: ExploreOptions = {}): Promise<ReplayResult> {
  const t0 = performance.now();
  const repro = await readReproduction(file);
  const needed = repro.steps.filter((s) => s.op === 'saveVoice').length;
  const ask = { ...options, budgetCreations: options.budgetCreations ?? (needed > 0 ? undefined : 0) };
  const deadline = new Deadline(t0 + limitsOf(ask, options.baseUrl === undefined).maxTimeMs, options);
  const prepared = await prepare({ ...options, fetch: deadline.fetch });
  const limits = limitsOf(ask, prepared.embedded);
  const budget = new Budget(
    { ...limits, maxTimeMs: limits.maxTimeMs - cleanupReserveMs(limits.maxTimeMs) },
    undefined,
    t0,
  );
  const oracle = await exploreOracle(prepared.wire, keyScopes(prepared.wire));
  const seq = new Sequence(
    prepared.wire,
    budget,
    { textLength: repro.acceptedTextLength ?? 0 },
    new Set(),
    oracle,
  );
  let ended: { outcome: ReplayOutcome; reason?: string };
  let cleanup: ReplayResult['cleanup'] = { deleted: 0, left: 0, failures: [] };
  try {
    const unmet = repro.preconditions
      ? await unmetPrecondition(prepared.wire, repro.preconditions, needed).catch((e: unknown) => ({
          network: `checking the preconditions: no answer: ${errorText(e)}`,
        }))
      : undefined;
    if (typeof unmet === 'object') ended = { outcome: 'network', reason: unmet.network };
    else if (unmet !== undefined) ended = { outcome: 'unmet', reason: `precondition not met: ${unmet}` };
    else ended = await runSteps(seq, repro.steps);
    if (options.signal?.aborted) ended = { outcome: 'aborted' };
  } finally {
    deadline.cleanup(options.signal?.aborted === true);
    const failures = await deleteCreated(seq.wire, seq.created);
    cleanup = await sweepRun(prepared.wire, prepared.wire.prefix, {
      timeLeft: () => deadline.msLeft(),
      deletes: seq.created.length + sweepMargin,
    }).catch((e: Error) => ({ deleted: 0, left: 0, failures: [e.message] }));
    cleanup = { ...cleanup, failures: [...failures, ...cleanup.failures] };
    await prepared.close().catch(() => undefined);
    await oracle.close().catch(() => undefined);
    deadline.dispose();
  }
  const verdicts = seq.violations;
  const before = new Set(repro.verdicts.map((v) => v.rule));
  return {
    ok: ended.outcome === 'pass',
    ...ended,
    file,
    baseUrl: prepared.wire.baseUrl,
    verdicts,
    again: [...new Set(verdicts.map((v) => v.rule).filter((r) => before.has(r)))],
    steps: seq.records,
    spent: { ...budget.spent },
    cleanup,
  };
}
