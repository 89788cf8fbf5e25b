/**
 * Steering towards the states not reached yet (oracle/coverage.ts): a first page of the size that makes
 * the voices the main key has now an unreached relation to the page size (exactly one page, one less,
 * one more, a multiple) or that shows a count of free uses not seen yet, then the walk it opens to its
 * end; or, while none was tried, a save the contract refuses (an id that exists, a key without Voice
 * Cloning); once those are reached, a page size not yet walked with as many voices. Lists only when
 * one would observe a state not seen yet, so the budget of requests goes to writes.
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

/**
 * Once the coverage's states are reached: a page size not yet walked with this many voices (smallest
 * first, so the walk has the most pages), for the states the coverage names once but a deployment may
 * break at one page size only (the page after a full one, the third page, a remainder of one).
 */
export function unwalkedSize(n: number, walked: ReadonlySet<string>): number | undefined {
  for (let s = 1; s <= Math.min(Math.max(n, 1), 20); s++) if (!walked.has(`${n}/${s}`)) return s;
  return undefined;
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
    const size =
      [seeFreeUses, ...missing.map((s) => pageSizeFor(s, n))].find(
        (s) => s !== undefined && m.listed.get(`main/${s}`) !== m.writes,
      ) ?? unwalkedSize(n, real.walked);
    if (size === undefined) return;
    real.walked.add(`${n}/${size}`);
    m.listed.set(`main/${size}`, m.writes);
    await walkAt(real, size, `list a first page of ${size} (${n} voices: a state not reached yet)`);
  }
  toString() {
    return 'Steer';
  }
}

/** A walk of the main key's list with pages of `size`, to its end (25 pages at most). */
async function walkAt(real: Sequence, size: number, label: string): Promise<void> {
  let record = await real.run({ label, op: 'listVoices', key: 'main', pageSize: size });
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

/** The page sizes that give `n` voices a shape of their own: one less, exactly, half, one per page. */
const climbSizes = (n: number): number[] =>
  [...new Set([n - 1, n, Math.ceil(n / 2), 1])].filter((s) => s >= 1 && s <= 20);

/**
 * The climb: one voice after another, as many as the sequence may save (the exploration gives its
 * climb part of the creation budget), and after each save walks with the page sizes that shape the
 * voices there are now in a way not walked yet. Depth a sequence of three saves, deleted after it,
 * never reaches: a page after a full one, a third page, the free uses running out and the first paid
 * creation, in one sequence the oracle follows throughout.
 */
export class Climb extends StepCommand {
  step() {
    return undefined;
  }
  override check(): boolean {
    return true;
  }
  override async run(m: Model, real: Sequence): Promise<void> {
    const main = real.wire.keys.main;
    while (m.saves < m.saveLimit && real.violations.length === 0 && real.failure === undefined) {
      const saves = m.saves;
      await new Save(0, 'fresh', 'uploader').run(m, real);
      if (m.saves === saves) return;
      const id = m.voices.at(-1)?.id;
      // Selectable at once, complete and streamed (a few characters each).
      for (const op of ['synthesizeSpeech', 'streamSpeech'] as const)
        if (id && real.violations.length === 0)
          await real.run({
            label: `${op === 'streamSpeech' ? 'stream' : 'synthesize'} with the voice just saved`,
            op,
            key: 'main',
            json: { generate_text: 'Hi.', voice_id: id },
          });
      const n = main ? real.oracle?.voices(main) : undefined;
      if (n === undefined) continue;
      for (const size of climbSizes(n)) {
        if (real.walked.has(`${n}/${size}`) || real.violations.length > 0) continue;
        real.walked.add(`${n}/${size}`);
        await walkAt(real, size, `list a first page of ${size} (${n} voices, climbing)`);
      }
    }
    await this.acrossScopes(m, real);
  }

  /**
   * At the top: a delete of the newest voice by each key of another scope (the voice must stay), then
   * one by main between two walks of pages of one.
   */
  private async acrossScopes(m: Model, real: Sequence): Promise<void> {
    const newest = m.voices.filter((v) => v.live).at(-1);
    if (!newest) return;
    for (const key of ['otherEnv', 'otherOrg'] as const) {
      if (!real.wire.keys[key] || real.violations.length > 0) continue;
      await real.run({
        label: `delete voice ${JSON.stringify(newest.id)} (${key})`,
        op: 'deleteVoice',
        key,
        voice: newest.id,
      });
      m.writes += 1;
    }
    if (real.violations.length > 0) return;
    await walkAt(real, 20, 'list a first page of 20 (after the deletes of other scopes)');
    const first = m.voices.find((v) => v.live);
    if (!first || real.violations.length > 0) return;
    await real.run({
      label: `delete voice ${JSON.stringify(first.id)} (main)`,
      op: 'deleteVoice',
      key: 'main',
      voice: first.id,
    });
    first.live = false;
    m.writes += 1;
    if (real.violations.length === 0) await walkAt(real, 1, 'list a first page of 1 (after a delete)');
  }
  toString() {
    return 'Climb';
  }
}

export const steerCommands = [fc.constant(null).map(() => new Steer())];
