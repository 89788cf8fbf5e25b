/**
 * Steering towards the states not reached yet (oracle/coverage.ts): a first page of the size that makes
 * the voices the main key has now an unreached relation to the page size (exactly one page, one less,
 * one more, a multiple) or that shows a count of free uses not seen yet, then the walk it opens to its
 * end; or, while none was tried, a save the contract refuses (an id that exists, a key without Voice
 * Cloning). Lists only when one would observe a state not seen yet, so the budget of requests goes to writes.
 */
import fc from 'fast-check';
import { type CoverageState, freeUsesState } from '../../../oracle/index.js';
import type { Model } from '../model.js';
import type { Sequence } from '../sequence.js';
import { Save } from './save.js';
import { StepCommand } from './step-command.js';

/** The page size that puts `n` voices in `state`, if one of 1..20 does. */
export function pageSizeFor(state: CoverageState, n: number): number | undefined {
  const ok = (s: number) => (s >= 1 && s <= 20 ? s : undefined);
  switch (state) {
    case 'voices: exactly the page size':
      return ok(n);
    case 'voices: page size - 1':
      return n >= 1 ? ok(n + 1) : undefined;
    case 'voices: page size + 1':
      return ok(n - 1);
    case 'voices: a multiple (2+) of the page size':
      return n >= 2
        ? [1, 2, 3, 4, 5]
            .map((k) => n / k)
            .find((s) => s >= 1 && s <= 20 && Number.isInteger(s) && n / s >= 2)
        : undefined;
    case 'voices: 0':
    case 'voices: 1':
    case 'voices: more than 20':
      return state === 'voices: 0'
        ? n === 0
          ? 20
          : undefined
        : state === 'voices: 1'
          ? n === 1
            ? 20
            : undefined
          : n > 20
            ? 20
            : undefined;
    default:
      return undefined;
  }
}

/** A save that reaches an unreached save state, when the sequence can send one. */
function saveFor(missing: readonly CoverageState[], m: Model, real: Sequence): Save | undefined {
  const duplicate = new Save(0, 'duplicate', 'uploader');
  if (missing.includes('a save of an id that exists') && duplicate.check(m)) return duplicate;
  const noClone = new Save(0, 'fresh', 'noClone');
  if (missing.includes('a save by a key without Voice Cloning') && real.wire.keys.noClone && noClone.check(m))
    return noClone;
  return undefined;
}

export class Steer extends StepCommand {
  step() {
    return undefined;
  }
  override check(): boolean {
    return true;
  }
  override async run(m: Model, real: Sequence): Promise<void> {
    const oracle = real.oracle;
    const main = real.wire.keys.main;
    const n = main && oracle ? oracle.voices(main) : undefined;
    if (!oracle || n === undefined) return;
    const missing = oracle.coverage.missing();
    // Saves the contract must refuse, while none was tried: an id that exists, a key that may not clone.
    const save = saveFor(missing, m, real);
    if (save) {
      await save.run(m, real);
      return;
    }
    const left = oracle.freeUses(main);
    // A count of free uses not yet seen is seen on any first page.
    const seeFreeUses = left !== undefined && missing.includes(freeUsesState(left)) ? 20 : undefined;
    const size = [seeFreeUses, ...missing.map((s) => pageSizeFor(s, n))].find(
      (s) => s !== undefined && m.listed.get(`main/${s}`) !== m.writes,
    );
    if (size === undefined) return;
    m.listed.set(`main/${size}`, m.writes);
    let record = await real.run({
      label: `list a first page of ${size} (${n} voices: a state not reached yet)`,
      op: 'listVoices',
      key: 'main',
      pageSize: size,
    });
    for (let page = 1; page < 25 && record.data?.has_more === true && real.violations.length === 0; page++) {
      const from = real.records.length - 1;
      record = await real.run({
        label: `list the page after step ${from + 1} (main)`,
        op: 'listVoices',
        key: 'main',
        pageSize: size,
        cursor: { from, field: 'next_voice_id' },
      });
    }
  }
  toString() {
    return 'Steer';
  }
}

export const steerCommands = [fc.constant(null).map(() => new Steer())];
