/**
 * --replay FILE: run a reproduction again, in order, with a judge of its own and through a budget like
 * an exploration's; its verdicts say whether the deployment still deviates (not ok) or no longer does.
 */
import { readFile } from 'node:fs/promises';
import type { Verdict } from '../../judge/index.js';
import { ConformanceSetupError } from '../setup/setup-error.js';
import { Budget, type Spent } from './budget.js';
import { deleteCreated, sweepRun } from './cleanup.js';
import type { ExploreOptions } from './options.js';
import { exploreOracle } from './oracle-link.js';
import { type Reproduction, reproFormat } from './reproduction.js';
import { keyScopes, Sequence, type StepRecord } from './sequence.js';
import { limitsOf, prepare } from './setup.js';

export interface ReplayResult {
  readonly ok: boolean;
  readonly file: string;
  readonly baseUrl: string;
  readonly verdicts: readonly Verdict[];
  /** The rules of the reproduction seen again. */
  readonly again: readonly string[];
  readonly steps: readonly StepRecord[];
  readonly spent: Spent;
}

async function readReproduction(file: string): Promise<Reproduction> {
  let repro: Reproduction;
  try {
    repro = JSON.parse(await readFile(file, 'utf8')) as Reproduction;
  } catch (e) {
    throw new ConformanceSetupError('replay', `${file}: ${(e as Error).message}`);
  }
  if (repro?.format !== reproFormat || !Array.isArray(repro.steps))
    throw new ConformanceSetupError(
      'replay',
      `${file} is not a reproduction of --explore (format ${reproFormat})`,
    );
  return repro;
}

/**
 * @example
 * const r = await replayReproduction('reports/conformance/explore-repro.json', { baseUrl, apiKey, allowBillable: true });
 * process.exitCode = r.ok ? 0 : 1;
 */
export async function replayReproduction(file: string, options: ExploreOptions = {}): Promise<ReplayResult> {
  const repro = await readReproduction(file);
  const needed = repro.steps.filter((s) => s.op === 'saveVoice').length;
  const prepared = await prepare(options);
  const limits = limitsOf(
    { ...options, budgetCreations: options.budgetCreations ?? (needed > 0 ? undefined : 0) },
    prepared.embedded,
  );
  const budget = new Budget(limits);
  const oracle = await exploreOracle(prepared.wire, keyScopes(prepared.wire));
  const seq = new Sequence(
    prepared.wire,
    budget,
    { textLength: repro.acceptedTextLength ?? 0 },
    new Set(),
    oracle,
  );
  try {
    for (const step of repro.steps) {
      const record = await seq.run(step);
      if (record.verdicts.some((v) => v.severity === 'must')) break;
    }
  } finally {
    await deleteCreated(seq.wire, seq.created);
    await sweepRun(prepared.wire, prepared.wire.prefix).catch(() => undefined);
    await prepared.close();
    await oracle.close();
  }
  const verdicts = seq.violations;
  const before = new Set(repro.verdicts.map((v) => v.rule));
  return {
    ok: verdicts.length === 0,
    file,
    baseUrl: prepared.wire.baseUrl,
    verdicts,
    again: [...new Set(verdicts.map((v) => v.rule).filter((r) => before.has(r)))],
    steps: seq.records,
    spent: { ...budget.spent },
  };
}
