import { limits } from '../../../openapi/contract.js';
import type { Operation } from '../context.js';
import { fail, ok } from '../envelope.js';
import { signVoiceUrl } from '../signed-url.js';
import { voiceSpace } from '../state/tenancy.js';
import type { VoiceRecord } from '../state/voices.js';

/**
 * Where a page starts: at the cursor voice; for a since-deleted one, just after its old position
 * (`list-order` decision); undefined for a cursor no response could have returned.
 */
function startIndex(voices: VoiceRecord[], cursor: string | undefined, deletedSequence: number | undefined) {
  if (cursor === undefined || cursor === '') return 0;
  const live = voices.findIndex((v) => v.voiceId === cursor);
  if (live >= 0) return live;
  if (deletedSequence === undefined) return undefined;
  const after = voices.findIndex((v) => v.sequence > deletedSequence);
  return after < 0 ? voices.length : after;
}

/**
 * GET /v1/voice/list (§4.3): the custom voices of the caller's organization and environment, oldest
 * first, page by page. `total` counts this page only; `next_voice_id` is the first voice of the next page.
 */
export const voiceList: Operation = async ({ caller, query, url, deps }) => {
  const size = query.page_size === undefined ? limits.pageSizeDefault.value : Number(query.page_size);
  if (!Number.isInteger(size) || size < limits.pageSizeMin.value || size > limits.pageSizeMax.value) {
    return fail('pageSizeOutOfRange', `page_size must be an integer from 1 to 20, got "${query.page_size}"`);
  }
  const space = voiceSpace(caller);
  const voices = deps.state.voices.inSpace(space);
  const cursor = query.voice_id;
  const start = startIndex(
    voices,
    cursor,
    cursor ? deps.state.voices.deletedSequence(space, cursor) : undefined,
  );
  if (start === undefined) {
    return fail(
      'invalidCursor',
      `voice_id "${cursor}" is not a cursor returned by a preceding list response`,
    );
  }
  const page = voices.slice(start, start + size);
  const next = voices[start + size];
  const list = await Promise.all(
    page.map(async (voice) => ({
      voice_id: voice.voiceId,
      voice_url: await signVoiceUrl(deps, url.origin, voice.ref),
      created_at: voice.createdAt,
    })),
  );
  return ok({
    list,
    ...(next ? { next_voice_id: next.voiceId } : {}),
    has_more: next !== undefined,
    total: list.length,
    remainingFreeCloneCount: deps.state.ledger.remainingFreeUses(caller.account),
  });
};
