import { errorText } from '../setup/preflight.js';
import { deleteVoice, listAll, remainingFreeUses } from '../toolkit/actions.js';
import { CaseContext } from '../toolkit/context.js';
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

/** remainingFreeCloneCount for the main key, or null when the list does not say. */
export async function freeUsesNow(state: RunState): Promise<number | null> {
  try {
    return await remainingFreeUses(new CaseContext(unaborted(state), housekeeping));
  } catch {
    return null;
  }
}

/**
 * Delete every voice of this run: all listed voices whose id starts with the run prefix, for every key
 * that saved one, plus every tracked id the list did not show. Nothing without the prefix is touched.
 * `deleted` counts distinct voice ids listed before the cleanup and gone after it: keys
 * of one organization see the same voices, so counting successful DELETEs would count a voice twice.
 */
export async function cleanupRun(
  state: RunState,
): Promise<{ readonly deleted: number; readonly remaining: number; readonly failures: string[] }> {
  const ctx = new CaseContext(unaborted(state), housekeeping);
  const keyNames = new Set<KeyName>(['main', ...state.tracked.map((t) => t.keyName)]);
  const failures: string[] = [];
  /** The prefixed ids each key listed before the deletes. */
  const before = new Map<string, Set<string>>();
  for (const keyName of keyNames) {
    const targets = new Set(state.tracked.filter((t) => t.keyName === keyName).map((t) => t.voiceId));
    const listed = new Set<string>();
    before.set(keyName, listed);
    try {
      for (const v of (await listAll(ctx, keyName)).voices) {
        if (v.voice_id.startsWith(state.prefix)) {
          targets.add(v.voice_id);
          listed.add(v.voice_id);
        }
      }
    } catch (e) {
      failures.push(`listing with ${keyName}: ${errorText(e)}`);
    }
    for (const id of targets) {
      if (!id.startsWith(state.prefix)) continue;
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
  const listedAfter = new Set<string>();
  for (const keyName of keyNames) {
    for (const id of before.get(keyName) ?? []) listedBefore.add(id);
    try {
      for (const v of (await listAll(ctx, keyName)).voices)
        if (v.voice_id.startsWith(state.prefix)) listedAfter.add(v.voice_id);
    } catch {
      failures.push(`listing with ${keyName} after cleanup failed`);
    }
  }
  const deleted = [...listedBefore].filter((v) => !listedAfter.has(v)).length;
  return { deleted, remaining: listedAfter.size, failures };
}
