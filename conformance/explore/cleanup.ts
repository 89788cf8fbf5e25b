/**
 * Deleting what an exploration created: after each sequence the voices it saved (with the key that
 * saved them), and at the end every voice any key of the run lists under the run prefix (a save the
 * deployment should have refused but accepted is caught there), bounded by the time left and by the
 * number of voices the run created. Nothing without the prefix is touched.
 * These requests are the explorer's housekeeping: not judged, not budgeted (deletes are free).
 */
import { apiKeyHeader } from '../../openapi/contract.js';
import { errorText } from '../setup/preflight.js';
import { jsonLimitBytes } from '../toolkit/answer-limit.js';
import { send } from '../toolkit/http.js';
import type { KeyName } from '../toolkit/run-state.js';
import type { Wire } from './wire.js';

/** Pages a sweep follows at most: a broken cursor cannot loop it. */
const maxPages = 50;

async function deleteOne(wire: Wire, key: KeyName, voiceId: string): Promise<number> {
  const req = new Request(`${wire.baseUrl}/v1/voice/${encodeURIComponent(voiceId)}`, {
    method: 'DELETE',
    headers: { [apiKeyHeader]: wire.keys[key] ?? '' },
  });
  return (await send(wire.fetch, req, { limitBytes: jsonLimitBytes })).status;
}

/** Ids the key lists under the prefix; the walk stops once `enough` were seen or the time is up. */
async function listed(
  wire: Wire,
  key: KeyName,
  prefix: string,
  enough: number,
  timeLeft: () => number,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages && ids.size < enough && timeLeft() > 0; page++) {
    const query = new URLSearchParams({ page_size: '20', ...(cursor ? { voice_id: cursor } : {}) });
    const req = new Request(`${wire.baseUrl}/v1/voice/list?${query}`, {
      headers: { [apiKeyHeader]: wire.keys[key] ?? '' },
    });
    const data = (
      (await send(wire.fetch, req, { limitBytes: jsonLimitBytes })).json as
        | { data?: { list?: unknown; has_more?: unknown; next_voice_id?: unknown } }
        | undefined
    )?.data;
    if (!data || !Array.isArray(data.list)) break;
    for (const v of data.list) {
      const id = (v as { voice_id?: unknown }).voice_id;
      if (typeof id === 'string' && id.startsWith(prefix)) ids.add(id);
    }
    if (data.has_more !== true || typeof data.next_voice_id !== 'string') break;
    cursor = data.next_voice_id;
  }
  return ids;
}

/** Delete the voices one sequence saved; returns the failures. */
export async function deleteCreated(
  wire: Wire,
  created: readonly { key: KeyName; voiceId: string }[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const { key, voiceId } of created) {
    try {
      const status = await deleteOne(wire, key, voiceId);
      if (status !== 200) failures.push(`DELETE ${voiceId} (${key}): HTTP ${status}`);
    } catch (e) {
      failures.push(`DELETE ${voiceId} (${key}): ${errorText(e)}`);
    }
  }
  return failures;
}

/** The sweep's bounds: the time it has, and the deletes it may send. */
export interface SweepLimits {
  /** Milliseconds left for the sweep (asked before each request). */
  readonly timeLeft: () => number;
  /** The voices the run itself created, plus a small margin: a list claiming more is not followed. */
  readonly deletes: number;
}

/** At most this many ids of voices left are named in the reports. */
const namedLeft = 20;

/**
 * Delete every voice any key lists under the run prefix, within `limits`; returns how many, how many
 * are left (listed after the deletes, or not tried when the time or the count ran out) and the failures
 * (the voices left named there).
 */
export async function sweepRun(
  wire: Wire,
  prefix: string,
  limits: SweepLimits,
): Promise<{ deleted: number; left: number; failures: string[] }> {
  const failures: string[] = [];
  let deleted = 0;
  let deletesLeft = limits.deletes;
  const notTried = new Set<string>();
  const leftAfter = new Set<string>();
  const keys = (Object.keys(wire.keys) as KeyName[]).filter((k) => wire.keys[k]);
  for (const key of keys) {
    try {
      for (const id of await listed(wire, key, prefix, deletesLeft + 1, limits.timeLeft)) {
        if (deletesLeft <= 0 || limits.timeLeft() <= 0) {
          notTried.add(id);
          continue;
        }
        deletesLeft -= 1;
        const status = await deleteOne(wire, key, id);
        if (status === 200) deleted++;
        else failures.push(`DELETE ${id} (${key}): HTTP ${status}`);
      }
      if (notTried.size === 0 && limits.timeLeft() > 0)
        for (const id of await listed(wire, key, prefix, Number.POSITIVE_INFINITY, limits.timeLeft))
          leftAfter.add(id);
    } catch (e) {
      failures.push(`sweeping with ${key}: ${errorText(e)}`);
    }
  }
  if (notTried.size > 0) {
    const why = limits.timeLeft() <= 0 ? 'the time ran out' : `${limits.deletes} deletes were sent`;
    const ids = [...notTried].slice(0, namedLeft).join(', ');
    failures.push(
      `the sweep stopped (${why}): ${notTried.size} voice(s) listed under the run prefix not deleted: ${ids}${notTried.size > namedLeft ? ', …' : ''}`,
    );
  }
  return { deleted, left: new Set([...notTried, ...leftAfter]).size, failures };
}
