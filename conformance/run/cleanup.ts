import { errorText } from '../setup/preflight.js';
import { deleteVoice, listPage, remainingFreeUses } from '../toolkit/actions.js';
import { CaseContext } from '../toolkit/context.js';
import { withTimeout } from '../toolkit/http.js';
import type { KeyName, RunState } from '../toolkit/run-state.js';
import type { CaseInfo } from '../types.js';

/** A stand-in case for the runner's own requests: observe severity, so nothing it sees fails a case. */
const housekeeping: CaseInfo = {
  id: 'runner.housekeeping',
  section: '-',
  severity: 'observe',
  title: 'the runner’s own requests (cost report, cleanup)',
};

/** The same state without the abort signal: cleanup must run even after Ctrl-C. */
function unaborted(state: RunState): RunState {
  return { ...state, signal: undefined };
}

/** remainingFreeCloneCount for the main key, or null when the list does not say (or not within `timeMs`). */
export async function freeUsesNow(state: RunState, timeMs?: number): Promise<number | null> {
  const bounded = timeMs === undefined ? state : { ...state, fetch: withTimeout(state.fetch, () => timeMs) };
  try {
    return await remainingFreeUses(new CaseContext(unaborted(bounded), housekeeping));
  } catch {
    return null;
  }
}

/** The cleanup's bounds: its time, and the deletes it may send beyond the voices the run made. */
export interface CleanupLimits {
  readonly timeMs: number;
  readonly margin: number;
}

/**
 * A minute, and 10 deletes more than the run's own voices: a deployment whose list claims run-prefixed
 * voices without end (or stops answering) cannot keep the run going; what is left is reported.
 */
export const cleanupLimits: CleanupLimits = { timeMs: 60_000, margin: 10 };
/** After Ctrl-C the run was asked to finish: the cleanup gets a few seconds only. */
export const abortedCleanupLimits: CleanupLimits = { timeMs: 5_000, margin: 10 };

/** At most this many ids of voices left are named in the report. */
const namedLeft = 20;

/** Pages a walk of the cleanup follows at most: a broken cursor cannot loop it. */
const maxPages = 500;

/**
 * The ids `key` lists under the prefix, walking from the first page until the list ends, the time is
 * up, or `enough` of them were seen (more than the cleanup may delete: the walk says nothing new).
 */
async function prefixedIds(
  ctx: CaseContext,
  key: KeyName,
  prefix: string,
  enough: number,
  msLeft: () => number,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages && msLeft() > 0 && ids.size < enough; page++) {
    const { ex, data } = await listPage(ctx, cursor === undefined ? {} : { voice_id: cursor }, key);
    if (!data) throw new Error(`the list answered HTTP ${ex.status}`);
    for (const v of data.list)
      if (typeof v.voice_id === 'string' && v.voice_id.startsWith(prefix)) ids.add(v.voice_id);
    if (data.has_more !== true || typeof data.next_voice_id !== 'string' || data.next_voice_id === '') break;
    cursor = data.next_voice_id;
  }
  return ids;
}

/**
 * Delete every voice of this run: all listed voices whose id starts with the run prefix, for every key
 * that saved one, plus every tracked id the list did not show. Nothing without the prefix is touched.
 * `deleted` counts distinct voice ids listed before the cleanup and gone after it: keys
 * of one organization see the same voices, so counting successful DELETEs would count a voice twice.
 * Bounded by `limits`: past its time or its count of deletes it stops and reports the voices left.
 */
export async function cleanupRun(
  state: RunState,
  limits: CleanupLimits = cleanupLimits,
): Promise<{ readonly deleted: number; readonly remaining: number; readonly failures: string[] }> {
  const deadline = performance.now() + limits.timeMs;
  const msLeft = () => deadline - performance.now();
  const bounded: RunState = { ...unaborted(state), fetch: withTimeout(state.fetch, msLeft) };
  const ctx = new CaseContext(bounded, housekeeping);
  const keyNames = new Set<KeyName>(['main', ...state.tracked.map((t) => t.keyName)]);
  const own = new Set(state.tracked.map((t) => t.voiceId));
  let deletesLeft = Math.max(state.voicesCreated, own.size) + limits.margin;
  const failures: string[] = [];
  /** Prefixed ids not deleted because the time or the count ran out. */
  const notTried = new Set<string>();
  /** The prefixed ids each key listed before the deletes. */
  const before = new Map<string, Set<string>>();
  for (const keyName of keyNames) {
    const targets = new Set(state.tracked.filter((t) => t.keyName === keyName).map((t) => t.voiceId));
    const listed = new Set<string>();
    before.set(keyName, listed);
    try {
      for (const id of await prefixedIds(ctx, keyName, state.prefix, deletesLeft + 1, msLeft)) {
        targets.add(id);
        listed.add(id);
      }
    } catch (e) {
      failures.push(`listing with ${keyName}: ${errorText(e)}`);
    }
    for (const id of targets) {
      if (!id.startsWith(state.prefix)) continue;
      if (msLeft() <= 0 || deletesLeft <= 0) {
        notTried.add(id);
        continue;
      }
      deletesLeft -= 1;
      try {
        const ex = await deleteVoice(ctx, id, keyName);
        if (ex.status !== 200 && listed.has(id))
          failures.push(`DELETE ${id} (${keyName}): HTTP ${ex.status}`);
      } catch (e) {
        failures.push(`DELETE ${id} (${keyName}): ${errorText(e)}`);
      }
    }
  }
  // Every id of the run is made once (the run prefix and a counter), so an id is one voice even when
  // several keys list it (one organization): counted once, gone when no key lists it any more.
  const listedBefore = new Set<string>();
  const listedAfter = new Set<string>(notTried);
  for (const keyName of keyNames) {
    for (const id of before.get(keyName) ?? []) listedBefore.add(id);
    if (notTried.size > 0 || msLeft() <= 0) continue;
    try {
      for (const id of await prefixedIds(ctx, keyName, state.prefix, Number.POSITIVE_INFINITY, msLeft))
        listedAfter.add(id);
    } catch {
      failures.push(`listing with ${keyName} after cleanup failed`);
    }
  }
  if (notTried.size > 0)
    failures.push(
      `cleanup stopped (${msLeft() <= 0 ? `after ${limits.timeMs / 1000} s` : `after ${Math.max(state.voicesCreated, own.size) + limits.margin} deletes: the run made ${state.voicesCreated} voice(s)`}); ${notTried.size} voice(s) under the run prefix left: ${[...notTried].slice(0, namedLeft).join(', ')}${notTried.size > namedLeft ? ', …' : ''}`,
    );
  const deleted = [...listedBefore].filter((v) => !listedAfter.has(v)).length;
  return { deleted, remaining: listedAfter.size, failures };
}
