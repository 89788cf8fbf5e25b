/**
 * The exploration: fast-check generates sequences of commands (commands/) tier by tier (lists and
 * refusals, then uploads, then creations and speech), each sequence runs against the deployment with a
 * judge of its own, and a sequence with a must verdict is shrunk by fast-check, every re-run through
 * the same budget. Ends at the first violation found (shrunk as far as budget and time allow), or when
 * the tiers, the budget or --max-time are done; then deletes what it created.
 */
import fc from 'fast-check';
import type { Oracle } from '../../oracle/index.js';
import type { KeyName } from '../toolkit/run-state.js';
import { Budget, type Spent } from './budget.js';
import { deleteCreated, sweepRun } from './cleanup.js';
import { commandsOf, type Tier, tiers } from './commands/index.js';
import { Probe, probes } from './commands/probe.js';
import { Climb } from './commands/steer.js';
import { BrokenMustRule } from './commands/step-command.js';
import { calibrationText } from './commands/synthesize.js';
import { cleanupReserveMs, Deadline, sweepMargin } from './deadline.js';
import { type Model, newModel } from './model.js';
import type { ExploreOptions, ExploreResult, Found } from './options.js';
import { exploreOracle } from './oracle-link.js';
import { keyScopes, Sequence } from './sequence.js';
import { limitsOf, prepare } from './setup.js';
import type { Step } from './step.js';
import type { Wire } from './wire.js';

/** Sequences per tier (the paid tier's per round: it runs rounds until the budget or --max-time ends it). */
const runsOf: Readonly<Record<Tier, number>> = { free: 3, uploads: 12, paid: 1_000 };
const maxCommands: Readonly<Record<Tier, number>> = { free: 8, uploads: 10, paid: 18 };
/** The share of each budget a tier may spend: lists and deletes are free, uploads keep most for saves. */
const shareOf: Readonly<Record<Tier, Spent>> = {
  free: { chars: 0, uploads: 0, creations: 0 },
  uploads: { chars: 0, uploads: 0.5, creations: 0.5 },
  paid: { chars: 1, uploads: 1, creations: 1 },
};
/** Step labels kept for the trace. */
const traceCap = 2_000;

/** The longest text first: the judge then knows every later (shorter) text fits an unstated limit. */
const calibration: Step = {
  label: 'synthesize the longest text with the default voice',
  op: 'synthesizeSpeech',
  key: 'main',
  json: { generate_text: calibrationText },
};

/**
 * A cursor held across a delete: a first page of 1, the delete of the newest voice the sequence saved
 * (deletes are free; the cleanup would delete it anyway), a synthesis with the deleted voice (a few
 * characters), then the pages that cursor opens.
 */
async function cursorAcrossDelete(seq: Sequence, model: Model): Promise<boolean> {
  const voice = model.voices.filter((v) => v.live).at(-1);
  if (!voice || seq.violations.length > 0) return false;
  let record = await seq.run({
    label: 'open a cursor: first page of 1 (main)',
    op: 'listVoices',
    key: 'main',
    pageSize: 1,
  });
  let from = seq.records.length - 1;
  await seq.run({
    label: `delete voice ${JSON.stringify(voice.id)} while the cursor is open`,
    op: 'deleteVoice',
    key: 'main',
    voice: voice.id,
  });
  voice.live = false;
  await seq.run({
    label: `synthesize the deleted voice ${JSON.stringify(voice.id)}`,
    op: 'synthesizeSpeech',
    key: 'main',
    json: { generate_text: 'Hello there.', voice_id: voice.id },
  });
  for (let page = 1; page < 10 && record.data?.has_more === true && seq.violations.length === 0; page++) {
    record = await seq.run({
      label: `list the page after step ${from + 1} (main)`,
      op: 'listVoices',
      key: 'main',
      pageSize: 1,
      cursor: { from, field: 'next_voice_id' },
    });
    from = seq.records.length - 1;
  }
  return true;
}

/** Walk the main key's list from the first page (default size), at most 10 pages. */
async function walk(seq: Sequence): Promise<void> {
  if (seq.violations.length > 0) return;
  let record = await seq.run({ label: 'walk the list: first page (main)', op: 'listVoices', key: 'main' });
  for (let page = 1; page < 10 && record.data?.has_more === true && seq.violations.length === 0; page++) {
    const from = seq.records.length - 1;
    record = await seq.run({
      label: `walk the list: the page after step ${from + 1} (main)`,
      op: 'listVoices',
      key: 'main',
      cursor: { from, field: 'next_voice_id' },
    });
  }
}

/** The keys besides main, each a view of the state a write may change (its scope's voices, its account's free uses). */
const otherViews: readonly KeyName[] = ['noClone', 'otherProject', 'otherEnv', 'otherOrg'];

/**
 * A first page through every other key given: a key of the same scope lists the same voices, and one
 * of another account shows free uses a write must not spend (a per-key cache, a write across scopes).
 */
async function views(seq: Sequence): Promise<void> {
  for (const key of otherViews) {
    if (!seq.wire.keys[key] || seq.violations.length > 0) continue;
    await seq.run({ label: `list the first page (${key})`, op: 'listVoices', key });
  }
}

/** Everything the sequences of one exploration share. */
class Exploration {
  sequences = 0;
  requests = 0;
  shrinks = 0;
  readonly trace: string[] = [];
  readonly operations: Record<string, number> = {};
  found: Found | undefined;
  readonly accepted = { textLength: 0 };
  readonly tried = new Set<number>();
  readonly walked = new Set<string>();
  /** Voices the sequences saved (answered 200): the final sweep deletes at most these and a margin. */
  created = 0;

  constructor(
    readonly wire: Wire,
    readonly budget: Budget,
    readonly progress: (line: string) => void,
    readonly oracle: Oracle,
  ) {}

  /** One sequence: run the commands, note what it did, keep it when it is the shortest violation yet. */
  async sequence(
    cmds: Iterable<fc.AsyncCommand<ReturnType<typeof newModel>, Sequence>>,
    saveLimit?: number,
  ): Promise<void> {
    // Nothing left to spend or no time: the remaining runs (and shrink attempts) pass at once.
    if (this.budget.outOfTime() || this.spentOut() || this.wire.signal?.aborted) return;
    const n = ++this.sequences;
    if (this.found) this.shrinks++;
    await this.oracle.reset();
    const seq = new Sequence(
      { ...this.wire, prefix: `${this.wire.prefix}${n.toString(36)}_` },
      this.budget,
      this.accepted,
      this.tried,
      this.oracle,
      this.walked,
    );
    try {
      // A walk before and after: free, and what the oracle and the session rules compare from (the
      // voices there are, the free-use count, every saved voice listed, every deleted one gone).
      await walk(seq);
      // The free tier writes nothing another view could show: its sequences skip them.
      const writes = this.budget.tierShare.uploads > 0;
      if (writes) await views(seq);
      if (this.budget.tierShare.chars > 0) await seq.run(calibration);
      const model = newModel(saveLimit);
      await fc.asyncModelRun(() => ({ model, real: seq }), cmds);
      // Lists observe what changed: none after a sequence that wrote nothing.
      if (model.writes > 0) {
        await walk(seq);
        if (writes) await views(seq);
        if (await cursorAcrossDelete(seq, model)) await walk(seq);
      }
      if (seq.violations.length > 0) throw new BrokenMustRule(seq.violations.map((v) => v.rule).join(', '));
    } finally {
      this.note(seq);
      this.created += seq.created.length;
      await deleteCreated(seq.wire, seq.created);
    }
  }

  /**
   * Nothing billable fits any more (the paid tier then stops: its sequences would only list). The
   * tiers before it spend nothing billable by design and always run.
   */
  spentOut(): boolean {
    const { spent, limits, tierShare } = this.budget;
    if (this.budget.exhausted()) return true;
    if (tierShare.creations < 1) return false;
    return (
      spent.creations >= limits.creations &&
      spent.uploads >= limits.uploads &&
      limits.chars - spent.chars < 16
    );
  }

  private note(seq: Sequence): void {
    for (const r of seq.records) {
      if (this.trace.length < traceCap)
        this.trace.push(`${this.sequences}: ${r.step.label}${r.skipped ? ` [skipped: ${r.skipped}]` : ''}`);
      if (r.status === undefined) continue;
      this.requests++;
      this.operations[r.step.op] = (this.operations[r.step.op] ?? 0) + 1;
    }
    if (seq.failure !== undefined && !this.wire.signal?.aborted)
      this.progress(`sequence ${this.sequences} ended early: a request got no answer: ${seq.failure}`);
    const verdicts = seq.violations;
    if (verdicts.length === 0) return;
    const steps = seq.records.filter((r) => r.status !== undefined).length;
    const best = this.found?.steps.filter((r) => r.status !== undefined).length ?? Number.POSITIVE_INFINITY;
    if (steps <= best) {
      const acceptedTextLength = this.accepted.textLength;
      this.found = {
        verdicts,
        steps: seq.records,
        shrinks: this.shrinks,
        shrinkCut: false,
        acceptedTextLength,
      };
      this.progress(
        `violation in sequence ${this.sequences} (${steps} requests): ${verdicts.map((v) => v.rule).join(', ')}`,
      );
    }
  }
}

/**
 * One tier's sequences; true when a violation ends the exploration. The paid tier goes on, round after
 * round of fresh seeds, while budget and time remain: no count of sequences cuts it short.
 */
/**
 * Before the paid tier's rounds, one climbing sequence (commands/steer.ts) with half the creations
 * left (at most 20): depth that sequences of three saves never reach. True when it found a violation.
 */
async function climb(run: Exploration): Promise<boolean> {
  const left = run.budget.limits.creations - run.budget.spent.creations;
  const saves = Math.min(20, Math.floor(left / 2));
  if (saves < 2 || run.spentOut()) return false;
  try {
    await run.sequence([new Climb()], saves);
  } catch (e) {
    if (!(e instanceof BrokenMustRule)) throw e;
  }
  if (run.found) run.progress('climb: a violation (its sequence is not shrunk)');
  return run.found !== undefined;
}

/** One sequence of the refusal probes the uploads tier's share left untried (commands/probe.ts). */
async function probeRest(run: Exploration): Promise<boolean> {
  if (run.spentOut()) return false;
  try {
    await run.sequence(
      probes.map(() => new Probe()),
      probes.length,
    );
  } catch (e) {
    if (!(e instanceof BrokenMustRule)) throw e;
  }
  return run.found !== undefined;
}

async function exploreTier(run: Exploration, tier: Tier, seed: number): Promise<boolean> {
  if (tier === 'paid' && ((await climb(run)) || (await probeRest(run)))) return true;
  const property = fc.asyncProperty(
    fc.commands(commandsOf(tier), { maxCommands: maxCommands[tier], size: 'max' }),
    (cmds) => run.sequence(cmds),
  );
  let sequences = 0;
  for (let round = 0; ; round++) {
    const outcome = await fc.check(property, {
      seed: seed + round * 7_919,
      numRuns: runsOf[tier],
      interruptAfterTimeLimit: Math.max(1, run.budget.timeLeftMs()),
    });
    sequences += outcome.numRuns;
    if (run.found) {
      run.found = { ...run.found, shrinkCut: outcome.interrupted || run.budget.outOfTime() };
      return true;
    }
    // A sequence that threw without a verdict is the explorer's failure, not the deployment's: said.
    // fast-check calls a run interrupted before its first sequence failed (with no error): time ran out.
    const timedOut = outcome.interrupted && (outcome.numRuns === 0 || outcome.errorInstance == null);
    if (outcome.failed && !timedOut)
      throw outcome.errorInstance instanceof Error
        ? outcome.errorInstance
        : new Error(String(outcome.errorInstance));
    const more = tier === 'paid' && !run.budget.outOfTime() && !run.spentOut() && !run.wire.signal?.aborted;
    if (!more || outcome.numRuns === 0) break;
  }
  run.progress(`${tier}: ${sequences} sequences, no violation`);
  return false;
}

/**
 * Explore a deployment (or the kit's mock) within a budget.
 *
 * @example
 * const r = await exploreDeployment({ baseUrl, apiKey, seed: 1, maxTimeSeconds: 60 });
 * if (r.found) console.log(r.found.verdicts, r.found.steps.map((s) => s.step.label));
 */
export async function exploreDeployment(options: ExploreOptions = {}): Promise<ExploreResult> {
  const t0 = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  const seed = options.seed ?? (Math.random() * 2 ** 31) >>> 0;
  // The options' errors before anything starts; --max-time counts from here.
  const deadline = new Deadline(t0 + limitsOf(options, options.baseUrl === undefined).maxTimeMs, options);
  const prepared = await prepare({ ...options, fetch: deadline.fetch });
  const limits = limitsOf(options, prepared.embedded);
  const oracle = await exploreOracle(prepared.wire, keyScopes(prepared.wire));
  // The sequences end before the cleanup's part of --max-time (deadline.ts).
  const budget = new Budget(
    { ...limits, maxTimeMs: limits.maxTimeMs - cleanupReserveMs(limits.maxTimeMs) },
    undefined,
    t0,
  );
  const run = new Exploration(prepared.wire, budget, progress, oracle);
  progress(
    `exploring ${prepared.wire.baseUrl} with seed ${seed}; budget: ${limits.chars} characters, ${limits.uploads} uploads, ${limits.creations} creations, ${limits.maxTimeMs / 1000} s`,
  );
  let cleanup: ExploreResult['cleanup'] = { deleted: 0, left: 0, failures: [] };
  const resultSoFar = (): ExploreResult => ({
    ok: run.found === undefined,
    seed,
    baseUrl: prepared.wire.baseUrl,
    embeddedMock: prepared.embedded,
    limits: {
      chars: limits.chars,
      uploads: limits.uploads,
      creations: limits.creations,
      maxTimeSeconds: limits.maxTimeMs / 1000,
    },
    spent: { ...budget.spent },
    refused: { ...budget.refused },
    sequences: run.sequences,
    requests: run.requests,
    trace: [...run.trace],
    operations: { ...run.operations },
    found: run.found,
    cleanup,
    coverage: oracle.coverage.lines(),
    durationMs: Math.round(performance.now() - t0),
    keyNames: Object.keys(prepared.wire.keys).filter(
      (k) => prepared.wire.keys[k as keyof typeof prepared.wire.keys],
    ),
  });
  options.onStarted?.(resultSoFar);
  try {
    for (const [i, tier] of tiers.entries()) {
      if (budget.outOfTime() || options.signal?.aborted) break;
      budget.tierShare = shareOf[tier];
      if (await exploreTier(run, tier, seed + i)) break;
    }
  } finally {
    deadline.cleanup(options.signal?.aborted === true);
    cleanup = await sweepRun(prepared.wire, prepared.wire.prefix, {
      timeLeft: () => deadline.msLeft(),
      deletes: run.created + sweepMargin,
    }).catch((e: Error) => ({ deleted: 0, left: 0, failures: [e.message] }));
    await prepared.close().catch(() => undefined);
    await oracle.close().catch(() => undefined);
    deadline.dispose();
  }
  return resultSoFar();
}
