/**
 * What a reproduction's verdict depends on, recorded when it is written and checked before --replay
 * sends its first step: a replay that cannot start from the same visible state can say nothing about a
 * fix. A free-use drift replayed after the free uses were spent would pass for "fixed".
 *
 * Recorded from the first page the sequence listed (every sequence starts with one): the main key's
 * `remainingFreeCloneCount` (when a verdict judges the free uses), how many voices it listed (exactly, when that page was the last; else at
 * least a page), and the keys the steps use. Checked with a walk of the main key's list (at most 50
 * pages); the replay's voices carry a run prefix of their own, so none of them exists yet (checked too).
 * The free uses hold when the reproduction's saves find as many free uses as they did (at least one
 * counts): 3 left or 5 left is the same state for a sequence of two saves, 1 left is not.
 */
import type { Verdict } from '../../judge/index.js';
import { apiKeyHeader } from '../../openapi/contract.js';
import { jsonLimitBytes } from '../toolkit/answer-limit.js';
import { send } from '../toolkit/http.js';
import type { KeyName } from '../toolkit/run-state.js';
import type { StepRecord } from './sequence.js';
import type { Wire } from './wire.js';

export interface Preconditions {
  /** The keys the steps use: each must be given to the replay. */
  readonly keys: readonly KeyName[];
  /** The main key's remainingFreeCloneCount when the sequence started, when the deployment said. */
  readonly remainingFreeCloneCount?: number;
  /** The voices the main key listed then: exactly `count`, or (not `exact`) more than `count`. */
  readonly voices?: { readonly count: number; readonly exact: boolean };
}

/** The flags that give each key to a run. */
const flagOf: Readonly<Record<KeyName, string>> = {
  main: '--api-key',
  noClone: '--key-no-clone',
  otherProject: '--key-other-project',
  otherEnv: '--key-other-env',
  otherOrg: '--key-other-org',
};

const maxPages = 50;

/** Rules whose verdicts depend on the free uses left (the count itself is what they judge). */
const freeUseRules = new Set(['session.free-uses', 'session.upload-free']);

/**
 * The preconditions of a sequence, from its records (the first one its first page of the main key);
 * the free uses only when a verdict judges them (other verdicts do not change with them, and an
 * exploration spends them: a replay after a reset would otherwise never start).
 */
export function preconditionsOf(records: readonly StepRecord[], verdicts: readonly Verdict[]): Preconditions {
  const keys = [...new Set(records.filter((r) => r.status !== undefined).map((r) => r.step.key))];
  const first = records[0];
  const page =
    first?.step.op === 'listVoices' && first.step.key === 'main' && first.step.cursor === undefined
      ? first.data
      : undefined;
  const free = verdicts.some((v) => freeUseRules.has(v.rule)) ? page?.remainingFreeCloneCount : undefined;
  const list = page?.list;
  return {
    keys,
    ...(typeof free === 'number' && Number.isInteger(free) && free >= 0
      ? { remainingFreeCloneCount: free }
      : {}),
    ...(Array.isArray(list) ? { voices: { count: list.length, exact: page?.has_more !== true } } : {}),
  };
}

/** What the main key's list shows now: voices counted over a complete walk, the free uses of its first page. */
async function visibleState(
  wire: Wire,
): Promise<{ voices: number; complete: boolean; free: unknown; ours: string[] }> {
  let voices = 0;
  let free: unknown;
  const ours: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query = cursor === undefined ? '' : `?${new URLSearchParams({ voice_id: cursor })}`;
    const req = new Request(`${wire.baseUrl}/v1/voice/list${query}`, {
      headers: { [apiKeyHeader]: wire.keys.main },
      ...(wire.signal ? { signal: wire.signal } : {}),
    });
    const ex = await send(wire.fetch, req, { limitBytes: jsonLimitBytes });
    const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
    if (ex.status !== 200 || !data || !Array.isArray(data.list))
      throw new Error(`the list answered HTTP ${ex.status} without a list`);
    if (page === 0) free = data.remainingFreeCloneCount;
    voices += data.list.length;
    for (const v of data.list) {
      const id = (v as { voice_id?: unknown } | null)?.voice_id;
      if (typeof id === 'string' && id.startsWith(wire.prefix)) ours.push(id);
    }
    if (data.has_more !== true || typeof data.next_voice_id !== 'string')
      return { voices, complete: true, free, ours };
    cursor = data.next_voice_id;
  }
  return { voices, complete: false, free, ours };
}

/**
 * How many of `saves` saves find a free use when `free` are left (at least one counts, so that a drift
 * of an upload or a refusal can show): two states with the same answer are the same for the steps.
 */
const freeSaves = (free: number, saves: number) => Math.min(free, Math.max(1, saves));

/**
 * The first precondition that does not hold now, in one line, or undefined when all hold. Throws what
 * the network throws (the replay names it).
 */
export async function unmetPrecondition(
  wire: Wire,
  pre: Preconditions,
  saves: number,
): Promise<string | undefined> {
  for (const key of pre.keys)
    if (!wire.keys[key]) return `the reproduction uses the ${key} key: give it with ${flagOf[key]}`;
  if (pre.remainingFreeCloneCount === undefined && pre.voices === undefined) return undefined;
  const now = await visibleState(wire);
  if (now.ours.length > 0)
    return `voices under the replay's run prefix already exist: ${now.ours.join(', ')}`;
  const was = pre.remainingFreeCloneCount;
  if (
    was !== undefined &&
    (typeof now.free !== 'number' || freeSaves(now.free, saves) !== freeSaves(was, saves))
  )
    return `remainingFreeCloneCount is ${JSON.stringify(now.free ?? null)} now; the reproduction started from ${was} (its ${saves} save(s) would not find the same free uses)`;
  const v = pre.voices;
  if (v?.exact && (!now.complete || now.voices !== v.count))
    return `the main key lists ${now.voices}${now.complete ? '' : '+'} voice(s) now; the reproduction started from ${v.count}`;
  if (v && !v.exact && now.voices <= v.count)
    return `the main key lists ${now.voices} voice(s) now; the reproduction started from more than ${v.count}`;
  return undefined;
}
