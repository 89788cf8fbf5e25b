/**
 * The views a write changes, observed before and after it: which of the run's voices a complete walk
 * of the list shows, `remainingFreeCloneCount`, and whether a voice is selectable for synthesis. A case
 * that creates, refuses, deletes or uploads takes a snapshot, makes its request and says what the
 * request should have changed; everything else must be as it was (a refused request changes nothing).
 * Only the run's own voices (its prefix) are compared: other clients may change the rest.
 */
import { listPage, synthesize } from './actions.js';
import type { CaseContext } from './context.js';
import type { KeyName } from './run-state.js';

/** Walks stop here: a page size of 20 and 50 pages see 1,000 voices, more than a run leaves alive. */
const walkPageSize = 20;
const walkMaxPages = 50;

/** What one key's views showed at one moment. */
export interface ViewSnapshot {
  readonly key: KeyName;
  /** The run's voices a complete walk of the list showed. */
  readonly ids: ReadonlySet<string>;
  /** Every voice the walk showed, the run's and others'. */
  readonly all: ReadonlySet<string>;
  /** `remainingFreeCloneCount` of the walk's first page, or null when it was missing. */
  readonly free: number | null;
  /** The walk reached the last page (else the ids are not compared). */
  readonly complete: boolean;
}

/** What a request should have changed in the views of its key. */
export interface ViewChange {
  /** The request, for messages: `a refused save of a 31-character id`. */
  readonly what: string;
  /** The spec sections the change is judged by, cited in every message. */
  readonly section: string;
  /** Voices the request created: now listed. */
  readonly added?: readonly string[];
  /** Voices the request deleted: no longer listed. */
  readonly removed?: readonly string[];
  /** Ids the request named but must not have created: neither listed nor selectable. */
  readonly absent?: readonly string[];
  /** Compare the voices of other clients too (a request that must create nothing at all, like an upload). */
  readonly othersKept?: boolean;
  /** `kept`: the count is unchanged; `charged`: one free use spent while one was left (§4.2 rule 3). */
  readonly freeUses: 'kept' | 'charged';
}

/**
 * A complete walk of `key`'s list (page_size 20, following next_voice_id, at most 50 pages) and the
 * free uses its first page shows. A failed page is a finding of its own and leaves the walk incomplete.
 */
export async function snapshotViews(ctx: CaseContext, key: KeyName = 'main'): Promise<ViewSnapshot> {
  const ids = new Set<string>();
  const all = new Set<string>();
  let free: number | null = null;
  let cursor: string | undefined;
  for (let page = 0; page < walkMaxPages; page++) {
    const query: Record<string, string | number> = { page_size: walkPageSize };
    if (cursor !== undefined) query.voice_id = cursor;
    const { ex, data } = await listPage(ctx, query, key);
    if (!data) {
      ctx.fail(`listing page ${page + 1} to observe the views answered HTTP ${ex.status}`, {
        request: ex.request,
      });
      return { key, ids, all, free, complete: false };
    }
    if (page === 0 && typeof data.remainingFreeCloneCount === 'number') free = data.remainingFreeCloneCount;
    for (const v of data.list) {
      if (typeof v?.voice_id !== 'string') continue;
      all.add(v.voice_id);
      if (v.voice_id.startsWith(ctx.state.prefix)) ids.add(v.voice_id);
    }
    if (data.has_more !== true) return { key, ids, all, free, complete: true };
    if (typeof data.next_voice_id !== 'string' || data.next_voice_id === '')
      return { key, ids, all, free, complete: false };
    cursor = data.next_voice_id;
  }
  return { key, ids, all, free, complete: false };
}

/**
 * Take the views again and compare them with `before` and the change the request should have made:
 * the run's voices are `before` plus `added` minus `removed`, no `absent` id is listed or selectable,
 * and the free uses are kept or charged once. Each difference is one finding naming the request.
 *
 * @example
 * const before = await snapshotViews(ctx);
 * const ex = await saveVoice(ctx, { voice_id: tooLong, ref_audio: ref });
 * await expectViews(ctx, before, { what: 'a refused save', section: '§4.2', absent: [tooLong], freeUses: 'kept' });
 */
export async function expectViews(
  ctx: CaseContext,
  before: ViewSnapshot,
  change: ViewChange,
): Promise<ViewSnapshot> {
  const after = await snapshotViews(ctx, before.key);
  const { what, section } = change;
  const where = before.key === 'main' ? '' : ` (key ${before.key})`;
  if (before.complete && after.complete) {
    const added = new Set(change.added ?? []);
    const removed = new Set(change.removed ?? []);
    for (const id of added)
      ctx.check(
        after.ids.has(id),
        `after ${what}, the created voice ${id} is not listed${where} (${section}, §4.3)`,
      );
    for (const id of removed)
      ctx.check(
        !after.ids.has(id),
        `after ${what}, the deleted voice ${id} is still listed${where} (${section}, §4.3)`,
      );
    for (const id of change.absent ?? [])
      ctx.check(
        !after.ids.has(id),
        `after ${what}, a voice ${id} is listed${where}: the refused request created it (${section}, §4.3)`,
      );
    const vanished = [...before.ids].filter((id) => !after.ids.has(id) && !removed.has(id));
    ctx.check(
      vanished.length === 0,
      `after ${what}, voices of this run no request deleted are gone from the list${where}: ${vanished.join(', ')} (${section}, §4.3, §4.4)`,
    );
    const [was, now] = change.othersKept ? [before.all, after.all] : [before.ids, after.ids];
    const appeared = [...now].filter(
      (id) => !was.has(id) && !added.has(id) && !(change.absent ?? []).includes(id),
    );
    ctx.check(
      appeared.length === 0,
      `after ${what}, voices no request created appeared in the list${where}: ${appeared.join(', ')} (${section}, §4.3)`,
    );
  } else ctx.note(`after ${what}: a list walk did not complete, so the listed voices were not compared`);
  compareFree(ctx, before.free, after.free, change, where);
  for (const id of change.absent ?? []) await expectSelectable(ctx, id, false, `after ${what}`, before.key);
  return after;
}

function compareFree(
  ctx: CaseContext,
  before: number | null,
  after: number | null,
  change: ViewChange,
  where: string,
): void {
  if (before === null || after === null) {
    ctx.note(`remainingFreeCloneCount was not shown around ${change.what}, so it was not compared`);
    return;
  }
  const expected = change.freeUses === 'charged' ? Math.max(0, before - 1) : before;
  const why =
    change.freeUses === 'charged'
      ? 'a creation spends one free use while one is left, never more'
      : 'only a successful creation spends a free use; anything else leaves the count as it was';
  ctx.check(
    after === expected,
    `remainingFreeCloneCount went from ${before} to ${after} across ${change.what}${where}; expected ${expected}: ${why} (§4.2 rule 3, §4.3)`,
  );
}

/**
 * Whether `voiceId` is selectable for synthesis with `key` (a short complete synthesis; one that must
 * not be is asked of the stream too): a listed voice speaks, a deleted or never-created one is refused
 * (§2.3, §4.5).
 */
export async function expectSelectable(
  ctx: CaseContext,
  voiceId: string,
  selectable: boolean,
  when: string,
  key: KeyName = 'main',
): Promise<boolean> {
  const ex = await synthesize(ctx, 'complete', { generate_text: shortCheck, voice_id: voiceId }, { key });
  const spoke = ex.status >= 200 && ex.status < 300;
  // A voice that must not exist is asked of the stream too: the two endpoints may look voices up apart.
  if (!selectable) {
    const streamed = await synthesize(
      ctx,
      'stream',
      { generate_text: shortCheck, voice_id: voiceId },
      { key },
    );
    ctx.check(
      streamed.status < 200 || streamed.status >= 300,
      `${when}, stream synthesis with the voice ${voiceId} answered HTTP ${streamed.status}: a voice that does not exist must not speak (§2.3, §4.4, §4.5)`,
      { request: streamed.request },
    );
  }
  return ctx.check(
    spoke === selectable,
    selectable
      ? `${when}, synthesis with the voice ${voiceId} answered HTTP ${ex.status}; a listed voice is selectable (§2.3, §4.5)`
      : `${when}, synthesis with the voice ${voiceId} answered HTTP ${ex.status}: a voice that does not exist must not speak (§2.3, §4.4, §4.5)`,
    { request: ex.request },
  );
}

/** Short enough to be cheap, within every text limit. */
const shortCheck = 'Checking this voice.';
