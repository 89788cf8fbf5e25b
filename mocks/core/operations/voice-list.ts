import { limits } from '../../../openapi/contract.js';
import { BytesAnswer } from '../answer/answer.js';
import { type Failure, fail, isFailure, okBytes, okJsonBytes, quoted } from '../answer/envelope.js';
import type { Operation, ServiceDeps } from '../context.js';
import { signVoiceUrl, voiceUrlExpiry } from '../reference/signed-url.js';
import type { KeptAnswer } from '../state/list-answers.js';
import type { VoiceRecord } from '../state/voices.js';

/**
 * Where a page starts: at the cursor voice; for a since-deleted one, just after its old position
 * (`list-order` decision); undefined for a cursor no response could have returned.
 */
function startIndex(
  voices: VoiceRecord[],
  cursor: string | undefined,
  deletedSequence: number | undefined,
  newestFirst: boolean,
) {
  if (cursor === undefined || cursor === '') return 0;
  const live = voices.findIndex((v) => v.voiceId === cursor);
  if (live >= 0) return live;
  if (deletedSequence === undefined) return undefined;
  const after = voices.findIndex((v) =>
    newestFirst ? v.sequence < deletedSequence : v.sequence > deletedSequence,
  );
  return after < 0 ? voices.length : after;
}

/**
 * GET /v1/voice/list (§4.3): the custom voices of the caller's organization and environment, oldest
 * first (newest first when a calibration profile says so), page by page. `total` counts this page
 * only; `next_voice_id` is the first voice of the next page.
 */
export const voiceList: Operation = (context) => {
  const { caller, query, url, deps } = context;
  const size = query.page_size === undefined ? limits.pageSizeDefault.value : Number(query.page_size);
  if (!Number.isInteger(size) || size < limits.pageSizeMin.value || size > limits.pageSizeMax.value) {
    return fail(
      'pageSizeOutOfRange',
      `page_size must be an integer from 1 to 20, got ${quoted(query.page_size ?? '')}`,
    );
  }
  const space = caller.voiceSpace;
  const expires = voiceUrlExpiry(deps);
  const remaining = deps.state.ledger.remainingFreeUses(caller.account);
  // Everything the answer depends on: the URL (origin, page size, cursor), the caller's space, the
  // voice_url expiry second and the free uses left; the voices' version covers what a cursor means.
  // Compared field by field: a key string per request cost more than the lookup it served.
  const store = deps.state.voices;
  const forUrl = deps.state.caches.lists.forUrl(store, url.href);
  const kept = forUrl.find((k) => k.space === space);
  // A kept answer goes back at once (no promise), as does a page whose voice_urls are all signed.
  if (kept && showsNow(kept, expires, remaining)) {
    return kept.answer;
  }
  const made = listPage(deps, {
    space,
    origin: url.origin,
    expires,
    remaining,
    size,
    cursor: query.voice_id,
  });
  if (isFailure(made)) return made;
  const entry: KeptAnswer = { space, expires, remaining, answer: made };
  if (kept) forUrl[forUrl.indexOf(kept)] = entry;
  else forUrl.push(entry);
  if (made instanceof BytesAnswer) return made;
  // Signing voice URLs: the requests that come meanwhile (each new second, up to one per connection)
  // wait for this answer instead of signing the same URLs again.
  return made.then(
    (answer) => {
      if (entry.answer === made) entry.answer = answer;
      return answer;
    },
    (error: unknown) => {
      if (entry.answer === made) forUrl.splice(forUrl.indexOf(entry), 1);
      throw error;
    },
  );
};

/** Whether a kept page shows the voice_url expiry second and the free uses left of now. */
const showsNow = (kept: KeptAnswer, expires: number, remaining: number): boolean =>
  kept.expires === expires && kept.remaining === remaining;

interface PageRequest {
  readonly space: string;
  readonly origin: string;
  readonly expires: number;
  readonly remaining: number;
  readonly size: number;
  readonly cursor: string | undefined;
}

/** One page of the list: at once when every voice_url of it is signed already, else once it is. */
function listPage(deps: ServiceDeps, page: PageRequest): BytesAnswer | Promise<BytesAnswer> | Failure {
  const { space, origin, expires, size, cursor } = page;
  const oldestFirst = deps.state.voices.inSpace(space);
  // `list-order`: a profile may say the deployment lists newest first; pages and cursors follow it.
  const newestFirst = deps.calibration.newestFirst;
  const voices = newestFirst ? oldestFirst.reverse() : oldestFirst;
  const start = startIndex(
    voices,
    cursor,
    cursor ? deps.state.voices.deletedSequence(space, cursor) : undefined,
    newestFirst,
  );
  if (start === undefined) {
    return fail(
      'invalidCursor',
      `voice_id ${quoted(cursor ?? '')} is not a cursor returned by a preceding list response`,
    );
  }
  const shown = voices.slice(start, start + size);
  const next = voices[start + size];
  const rest = JSON.stringify({
    ...(next ? { next_voice_id: next.voiceId } : {}),
    has_more: next !== undefined,
    total: shown.length,
    remainingFreeCloneCount: page.remaining,
  });
  const answerOf = (entries: readonly string[]) =>
    okBytes(okJsonBytes(`{"list":[${entries.join(',')}],${rest.slice(1)}`));
  const pending = shown.map((voice) => entryJson(deps, origin, expires, voice));
  // Awaited only when some entry had to be signed: 20 settled promises cost as much as the rest.
  if (pending.every((entry) => typeof entry === 'string')) return answerOf(pending as string[]);
  return Promise.all(pending).then(answerOf);
}

function entryJson(
  deps: ServiceDeps,
  origin: string,
  expires: number,
  voice: VoiceRecord,
): string | Promise<string> {
  // An entry only changes when its voice_url does (each second of the clock, or another origin).
  const { lists } = deps.state.caches;
  const kept = lists.entry(voice, origin, expires);
  if (kept !== undefined) return kept;
  return signVoiceUrl(deps, origin, voice.ref, expires).then((voiceUrl) => {
    const json = JSON.stringify({
      voice_id: voice.voiceId,
      voice_url: voiceUrl,
      created_at: voice.createdAt,
    });
    lists.keepEntry(voice, origin, expires, json);
    return json;
  });
}
