import { deleteVoice, listAll, remainingFreeUses } from './actions.js';
import { CaseContext } from './context.js';
import type { KeyName, RunState } from './run-state.js';
import type { ConformanceCase } from './types.js';

/** A stand-in case for the runner's own requests: observe severity, so nothing it sees fails a case. */
const housekeeping: ConformanceCase = {
  id: 'runner.housekeeping',
  section: '-',
  severity: 'observe',
  title: 'the runner’s own requests (cost report, cleanup)',
  run: async () => undefined,
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
 */
export async function cleanupRun(
  state: RunState,
): Promise<{ readonly deleted: number; readonly remaining: number; readonly failures: string[] }> {
  const ctx = new CaseContext(unaborted(state), housekeeping);
  const keyNames = new Set<KeyName>(['main', ...state.tracked.map((t) => t.keyName)]);
  let deleted = 0;
  const failures: string[] = [];
  for (const keyName of keyNames) {
    const targets = new Set(state.tracked.filter((t) => t.keyName === keyName).map((t) => t.voiceId));
    const listed = new Set<string>();
    try {
      for (const v of (await listAll(ctx, keyName)).voices) {
        if (v.voice_id.startsWith(state.prefix)) {
          targets.add(v.voice_id);
          listed.add(v.voice_id);
        }
      }
    } catch (e) {
      failures.push(`listing with ${keyName}: ${(e as Error).message}`);
    }
    for (const id of targets) {
      if (!id.startsWith(state.prefix)) continue;
      try {
        const ex = await deleteVoice(ctx, id, keyName);
        if (ex.status === 200 && listed.has(id)) deleted += 1;
        else if (ex.status !== 200 && listed.has(id))
          failures.push(`DELETE ${id} (${keyName}): HTTP ${ex.status}`);
      } catch (e) {
        failures.push(`DELETE ${id} (${keyName}): ${(e as Error).message}`);
      }
    }
  }
  let remaining = 0;
  for (const keyName of keyNames) {
    try {
      remaining += (await listAll(ctx, keyName)).voices.filter((v) =>
        v.voice_id.startsWith(state.prefix),
      ).length;
    } catch {
      failures.push(`listing with ${keyName} after cleanup failed`);
    }
  }
  return { deleted, remaining, failures };
}
