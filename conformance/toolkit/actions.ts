/**
 * The operations of §4 as calls a case makes, each checked by `ctx.call`, plus the bookkeeping the
 * cleanup and the cost report need (which voice ids the run used, how many it created).
 */

import { isObject } from '../../judge/envelope.js';
import { errors, limits, normalizeVoiceId, upload as uploadRules } from '../../openapi/contract.js';
import type { CallSpec, CaseContext, KeyChoice } from './context.js';
import type { Exchange, SendOptions } from './http.js';
import { type UploadForm, uploadFormData } from './multipart.js';
import type { KeyName } from './run-state.js';

/** The identity of a created voice in RunState.liveVoices: voice ids are per key's space. */
const liveKey = (key: KeyName, voiceId: string) => `${key}\u0000${voiceId}`;

/** The spec-silent point a call probes, for the run's profile (CallSpec.probes). */
export type Probe = Pick<CallSpec, 'probes' | 'aspect'>;

/** A custom voice of a list page (§4.3). */
export interface ListedVoice {
  readonly voice_id: string;
  readonly voice_url: string;
  readonly created_at: number;
}

/** The data of a list page, when it has the documented shape. */
export interface ListData {
  readonly list: readonly ListedVoice[];
  readonly next_voice_id?: string | null;
  readonly has_more: boolean;
  readonly total: number;
  readonly remainingFreeCloneCount: number;
}

/** The `data` object of a 200 envelope, or undefined. */
export function dataOf(ex: Exchange): Record<string, unknown> | undefined {
  if (ex.status !== 200 || !isObject(ex.json)) return undefined;
  const d = ex.json.data;
  return isObject(d) ? d : undefined;
}

/** POST /v1/files/upload with a form (small files). */
export async function uploadForm(
  ctx: CaseContext,
  form: UploadForm,
  key: KeyChoice = 'main',
): Promise<Exchange> {
  const ex = await ctx.call({
    op: 'uploadFile',
    method: 'POST',
    path: '/v1/files/upload',
    key,
    body: uploadFormData(form),
  });
  if (ex.status === 200) ctx.state.uploads += 1;
  if (ex.status === errors.uploadRateLimited.status && !ctx.kase.needs?.include?.includes('rate-limit')) {
    // The documented quota (§8) is spent, so this case cannot observe what it is about: the run is
    // inconclusive rather than passed, and it says why and what to do.
    throw new Error(
      `the upload quota of this key's user is spent (HTTP ${ex.status}, error_code ${String(
        isObject(ex.json) ? ex.json.error_code : undefined,
      )}; ${limits.uploadRatePerHour.value} uploads per user per hour, §8): this case could not run. ` +
        'Run again after the hour window, or use a key of another user.',
    );
  }
  return ex;
}

/** Upload a recording with scene `audio`; the object key on success, else a failure and undefined. */
export async function uploadFile(
  ctx: CaseContext,
  file: { readonly name: string; readonly bytes: Uint8Array },
  key: KeyName = 'main',
): Promise<string | undefined> {
  const ex = await uploadForm(ctx, { scene: uploadRules.scenes[0], file }, key);
  const objectKey = dataOf(ex)?.object_key;
  if (typeof objectKey === 'string' && objectKey !== '') return objectKey;
  ctx.fail(`uploading ${file.name} (${file.bytes.byteLength} bytes) failed with HTTP ${ex.status}`, {
    request: ex.request,
  });
  return undefined;
}

/** The object key of the positive reference recording for `key`, uploaded once per run and key. */
export async function referenceKey(ctx: CaseContext, key: KeyName = 'main'): Promise<string | undefined> {
  const cached = ctx.state.referenceKeys.get(key);
  if (cached) return cached;
  const objectKey = await uploadFile(ctx, await ctx.state.referenceAudio(), key);
  if (objectKey) ctx.state.referenceKeys.set(key, objectKey);
  return objectKey;
}

/** POST /v1/voice/save. The id is tracked before sending, so the cleanup deletes it even if a refusal was expected. */
export async function saveVoice(
  ctx: CaseContext,
  body: Record<string, unknown>,
  key: KeyName = 'main',
  headers?: Record<string, string>,
  probe: Probe = {},
): Promise<Exchange> {
  if (typeof body.voice_id === 'string') {
    const id = normalizeVoiceId(body.voice_id);
    if (id.startsWith(ctx.state.prefix)) ctx.state.tracked.push({ keyName: key, voiceId: id });
  }
  const ex = await ctx.call({
    op: 'saveVoice',
    method: 'POST',
    path: '/v1/voice/save',
    key,
    ...(headers ? { body: JSON.stringify(body), headers } : { json: body }),
    ...probe,
  });
  if (ex.status === 200) {
    ctx.state.voicesCreated += 1;
    if (typeof body.voice_id === 'string')
      ctx.state.liveVoices.add(liveKey(key, normalizeVoiceId(body.voice_id)));
  }
  return ex;
}

/** Create a voice from the reference recording; its id on success, else a failure and undefined. */
export async function createVoice(
  ctx: CaseContext,
  tag: string,
  opts: { readonly key?: KeyName; readonly refAudio?: string; readonly voiceId?: string } = {},
): Promise<string | undefined> {
  const key = opts.key ?? 'main';
  const ref = opts.refAudio ?? (await referenceKey(ctx, key));
  if (!ref) return undefined;
  const voiceId = opts.voiceId ?? ctx.newVoiceId(tag);
  const ex = await saveVoice(ctx, { voice_id: voiceId, ref_audio: ref }, key);
  if (ex.status === 200) return normalizeVoiceId(voiceId);
  ctx.fail(
    `creating voice ${voiceId} failed with HTTP ${ex.status}: ${JSON.stringify(ex.json)?.slice(0, 200)}`,
    {
      request: ex.request,
    },
  );
  return undefined;
}

/** GET /v1/voice/list with a query. */
export async function listPage(
  ctx: CaseContext,
  query: Readonly<Record<string, string | number>> = {},
  key: KeyChoice = 'main',
  probe: Probe = {},
): Promise<{ readonly ex: Exchange; readonly data: ListData | undefined }> {
  const ex = await ctx.call({
    op: 'listVoices',
    method: 'GET',
    path: '/v1/voice/list',
    key,
    query,
    ...probe,
  });
  const d = dataOf(ex);
  const data = d && Array.isArray(d.list) ? (d as unknown as ListData) : undefined;
  return { ex, data };
}

/** Every page of the list, following next_voice_id; stops at 500 pages so a broken cursor cannot loop. */
export async function listAll(
  ctx: CaseContext,
  key: KeyName = 'main',
  pageSize?: number,
): Promise<{ readonly voices: ListedVoice[]; readonly pages: ListData[]; readonly complete: boolean }> {
  const voices: ListedVoice[] = [];
  const pages: ListData[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const query: Record<string, string | number> = {};
    if (pageSize !== undefined) query.page_size = pageSize;
    if (cursor !== undefined) query.voice_id = cursor;
    const { ex, data } = await listPage(ctx, query, key);
    if (!data) {
      ctx.fail(`listing page ${i + 1} failed with HTTP ${ex.status}`, { request: ex.request });
      return { voices, pages, complete: false };
    }
    pages.push(data);
    voices.push(...data.list);
    if (data.has_more !== true) return { voices, pages, complete: true };
    if (typeof data.next_voice_id !== 'string' || data.next_voice_id === '') {
      ctx.fail('has_more is true but next_voice_id is missing or empty', { request: ex.request });
      return { voices, pages, complete: false };
    }
    cursor = data.next_voice_id;
  }
  ctx.fail('the list did not end within 500 pages (a cursor loop?)');
  return { voices, pages, complete: false };
}

/** The ids a full traversal shows for `key`. */
export async function listedIds(ctx: CaseContext, key: KeyName = 'main'): Promise<string[]> {
  return (await listAll(ctx, key)).voices.map((v) => v.voice_id);
}

/** remainingFreeCloneCount of the first list page, or null. */
export async function remainingFreeUses(ctx: CaseContext, key: KeyName = 'main'): Promise<number | null> {
  const { data } = await listPage(ctx, { page_size: 1 }, key);
  return typeof data?.remainingFreeCloneCount === 'number' ? data.remainingFreeCloneCount : null;
}

/** DELETE /v1/voice/{voice_id}. A success that removes a voice of this run is counted for the cost report. */
export async function deleteVoice(
  ctx: CaseContext,
  voiceId: string,
  key: KeyChoice = 'main',
  probe: Probe = {},
): Promise<Exchange> {
  const ex = await ctx.call({
    op: 'deleteVoice',
    method: 'DELETE',
    path: `/v1/voice/${encodeURIComponent(voiceId)}`,
    key,
    ...probe,
  });
  // Only the first success counts: a second delete of the same voice may answer 200 too (§4.4).
  if (ex.status === 200 && typeof key === 'string' && ctx.state.liveVoices.delete(liveKey(key, voiceId)))
    ctx.state.voicesDeleted += 1;
  return ex;
}

export type Endpoint = 'complete' | 'stream';
export const endpoints: readonly Endpoint[] = ['complete', 'stream'];

/** POST /v1/text-to-speech or /v1/text-to-speech/stream. */
export function synthesize(
  ctx: CaseContext,
  endpoint: Endpoint,
  body: unknown,
  opts: { readonly key?: KeyChoice; readonly send?: SendOptions } & Probe = {},
): Promise<Exchange> {
  return ctx.call({
    ...(opts.probes ? { probes: opts.probes } : {}),
    op: endpoint === 'complete' ? 'synthesizeSpeech' : 'streamSpeech',
    method: 'POST',
    path: endpoint === 'complete' ? '/v1/text-to-speech' : '/v1/text-to-speech/stream',
    key: opts.key === undefined ? 'main' : opts.key,
    json: body,
    ...(opts.send ? { send: opts.send } : {}),
  });
}
