/**
 * A test-only "staging" that keeps the contract but chose differently from the kit's mock on many of
 * the points the spec leaves open: the kit's mock (createMockService, in process) behind a Fetch
 * function that rewrites requests and answers. It knows nothing of the mock's profile support: it is
 * the independent deployment a profile is written from. `variantChoices` is what a profile of it must
 * hold on each point it varies.
 */
import { createMockService, type MockServiceOptions } from '../../mocks/index.js';
import { normalizeVoiceId } from '../../openapi/contract.js';
import type { Choice } from '../../profile/types.js';
import type { FetchLike } from '../toolkit/http.js';
import { isList, isSave, isSynthesis, isUpload, jsonLike, keyOf, pathOf, refuse } from './deviation-kit.js';

/** The staging's choice on every point it varies (the rest are the mock's own). */
export const variantChoices = {
  'voice-save-statuses/10018': { status: 400 },
  'voice-save-statuses/20016': { status: 422 },
  'voice-save-statuses/20017': { status: 422 },
  'ref-audio-not-accessible': { status: 403, error_code: 20012 },
  'voice-save-data': { data: { voice_id: '{voice_id}', status: 'ready' } },
  'list-order': { order: 'newest-first' },
  'page-size-out-of-range': { status: 422, error_code: 10001 },
  'list-errors/unknown-cursor': { status: 404, error_code: 10001 },
  'delete-response-body': { data: {} },
  'delete-response-body/missing': { status: 404, error_code: 10001 },
  'delete-refused-status': { status: 400, error_code: 10001 },
  'pcm-header-names': {
    sampleRate: 'X-Sample-Rate',
    channels: 'X-Channel-Count',
    bitDepth: 'X-Bits-Per-Sample',
  },
  'default-audio-format': { complete: 'mp3', stream: 'mp3' },
  'text-alias': { accepted: true },
  'max-text-length': { characters: 5000 },
  'max-text-length/refusal': { status: 413, error_code: 10001 },
  'upload-retry-after': { header: false },
  'synthesis-errors/unknown-voice': { status: 404, error_code: 10001 },
  'synthesis-errors/missing-text': { status: 422, error_code: 10001 },
  'general-errors/malformed-json': { status: 422, error_code: 10001 },
  'general-errors/unknown-path': { status: 404, error_code: 10002 },
  'general-errors/wrong-method': { status: 404, error_code: 10002 },
} as const satisfies Record<string, Choice>;

const maxText = variantChoices['max-text-length'].characters;
const saveStatuses: Readonly<Record<number, number>> = { 10018: 400, 20016: 422, 20017: 422 };
const pcmNames: ReadonlyArray<readonly [string, string]> = [
  ['x-audio-sample-rate', variantChoices['pcm-header-names'].sampleRate],
  ['x-audio-channels', variantChoices['pcm-header-names'].channels],
  ['x-audio-bit-depth', variantChoices['pcm-header-names'].bitDepth],
];
const routes = new Map([
  ['/v1/files/upload', 'POST'],
  ['/v1/voice/save', 'POST'],
  ['/v1/voice/list', 'GET'],
  ['/v1/text-to-speech', 'POST'],
  ['/v1/text-to-speech/stream', 'POST'],
]);

const refusal = (c: { status: number; error_code: number }, message: string) =>
  refuse(c.status, c.error_code, message);

/** The JSON object of a request body, `'malformed'` when it does not parse, undefined when it is not one. */
async function requestObject(req: Request): Promise<Record<string, unknown> | 'malformed' | undefined> {
  try {
    const v: unknown = JSON.parse(await req.clone().text());
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return 'malformed';
  }
}

async function envelope(res: Response): Promise<Record<string, unknown> | undefined> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return undefined;
  return (await res.clone().json()) as Record<string, unknown>;
}

/** A path no endpoint has, or one asked with another method: both the same 404 (a gateway's). */
function unrouted(req: Request): Response | undefined {
  const path = pathOf(req);
  const method = routes.get(path) ?? (/^\/v1\/voice\/[^/]+$/.test(path) ? 'DELETE' : undefined);
  if (method === req.method || req.method === 'HEAD' || req.method === 'OPTIONS') return undefined;
  return refusal(variantChoices['general-errors/unknown-path'], `no route for ${req.method} ${path}`);
}

/** The variant's synthesis: its own text rules, the alias, mp3 by default, its PCM header names. */
async function synthesis(req: Request, next: FetchLike): Promise<Response> {
  const body = await requestObject(req);
  if (body === 'malformed')
    return refusal(variantChoices['general-errors/malformed-json'], 'body is not JSON');
  if (!body) return next(req);
  const { text, ...rest } = body;
  if (rest.generate_text === undefined && typeof text === 'string') rest.generate_text = text;
  else if (text !== undefined) rest.text = text;
  const generate = rest.generate_text;
  if (generate === undefined || generate === '')
    return refusal(variantChoices['synthesis-errors/missing-text'], 'generate_text is required');
  if (typeof generate === 'string' && [...generate].length > maxText)
    return refusal(variantChoices['max-text-length/refusal'], `generate_text is over ${maxText} characters`);
  rest.audio_format ??= 'mp3';
  const res = await next(new Request(req, { body: JSON.stringify(rest) }));
  const env = res.status === 200 ? undefined : await envelope(res);
  if (/is not available to this project/.test(String(env?.error_message)))
    return refusal(variantChoices['synthesis-errors/unknown-voice'], String(env?.error_message));
  if (res.status !== 200 || res.headers.get('content-type') !== 'audio/pcm') return res;
  const headers = new Headers(res.headers);
  for (const [from, to] of pcmNames) {
    const v = headers.get(from);
    headers.delete(from);
    if (v !== null) headers.set(to, v);
  }
  return new Response(res.body, { status: res.status, headers });
}

/** Voices saved and not deleted, per key: the variant answers a delete of anything else with 404. */
type Live = Set<string>;

async function save(req: Request, next: FetchLike, live: Live): Promise<Response> {
  const body = await requestObject(req);
  if (body === 'malformed')
    return refusal(variantChoices['general-errors/malformed-json'], 'body is not JSON');
  const res = await next(req);
  const env = await envelope(res);
  const id = typeof body?.voice_id === 'string' ? normalizeVoiceId(body.voice_id) : '';
  if (res.status === 200) {
    live.add(`${keyOf(req)}\u0000${id}`);
    return jsonLike(res, { ...env, data: { voice_id: id, status: 'ready' } });
  }
  const code = Number(env?.error_code);
  if (saveStatuses[code]) return jsonLike(res, env, saveStatuses[code]);
  // An object key of elsewhere is 403 here; a URL that cannot be fetched stays the mock's 400/20012.
  if (code === 20012 && /^ref_audio (cannot be read|must be)/.test(String(env?.error_message)))
    return jsonLike(res, env, variantChoices['ref-audio-not-accessible'].status);
  return res;
}

async function remove(req: Request, next: FetchLike, live: Live): Promise<Response> {
  const id = normalizeVoiceId(decodeURIComponent(pathOf(req).split('/').pop() ?? ''));
  const res = await next(req);
  const env = await envelope(res);
  if (res.status === 403) return jsonLike(res, env, variantChoices['delete-refused-status'].status);
  if (res.status !== 200) return res;
  if (!live.delete(`${keyOf(req)}\u0000${id}`))
    return refusal(variantChoices['delete-response-body/missing'], `voice ${id} does not exist`);
  return jsonLike(res, { ...env, data: {} });
}

interface ListedVoice {
  readonly voice_id: string;
}

/** Every voice the key sees, oldest first (the mock's order), and the free-use count. */
async function allVoices(req: Request, next: FetchLike) {
  const voices: ListedVoice[] = [];
  let cursor: string | undefined;
  let data: Record<string, unknown> = {};
  for (let page = 0; page < 100; page++) {
    const url = new URL(req.url);
    url.search = '';
    url.searchParams.set('page_size', '20');
    if (cursor) url.searchParams.set('voice_id', cursor);
    const res = await next(new Request(url, { headers: req.headers }));
    if (res.status !== 200) return { failed: res };
    data = (await res.json()).data as Record<string, unknown>;
    voices.push(...(data.list as ListedVoice[]));
    if (data.has_more !== true) break;
    cursor = String(data.next_voice_id);
  }
  return { voices, remaining: data.remainingFreeCloneCount };
}

/** The list newest first, its own page-size refusal and cursors (a voice id of the list, as the mock's). */
async function list(req: Request, next: FetchLike): Promise<Response> {
  const query = new URL(req.url).searchParams;
  const size = query.get('page_size') ?? '20';
  if (!/^\d+$/.test(size) || Number(size) < 1 || Number(size) > 20)
    return refusal(variantChoices['page-size-out-of-range'], `page_size must be 1 to 20, got ${size}`);
  const all = await allVoices(req, next);
  if ('failed' in all) return all.failed ?? refuse(500, 10000, 'list failed');
  const voices = all.voices.reverse();
  const cursor = query.get('voice_id');
  const start = cursor === null ? 0 : voices.findIndex((v) => v.voice_id === cursor);
  if (start < 0) return refusal(variantChoices['list-errors/unknown-cursor'], `unknown cursor ${cursor}`);
  const shown = voices.slice(start, start + Number(size));
  const nextVoice = voices[start + Number(size)];
  const data = {
    list: shown,
    ...(nextVoice ? { next_voice_id: nextVoice.voice_id } : {}),
    has_more: nextVoice !== undefined,
    total: shown.length,
    remainingFreeCloneCount: all.remaining,
  };
  return new Response(JSON.stringify({ error_code: 0, error_message: '', succeed: true, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

/** An upload refused for its rate carries no Retry-After here. */
async function upload(req: Request, next: FetchLike): Promise<Response> {
  const res = await next(req);
  if (res.status !== 429) return res;
  const headers = new Headers(res.headers);
  headers.delete('retry-after');
  return new Response(res.body, { status: res.status, headers });
}

const quietLogger = { error: () => undefined };

/** Only loopback: the mock fetches ref_audio URLs, and a test sends nothing anywhere else. */
export const loopbackOnly: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname)
    ? fetch(input, init)
    : Promise.reject(new TypeError('fetch failed: not a loopback address (test)'));
};

/**
 * A fresh variant staging: its fetch, and the mock behind it.
 *
 * @example
 * const staging = createVariantStaging();
 * await runConformance({ baseUrl: 'http://127.0.0.1:9', fetch: staging.fetch, ... });
 */
export function createVariantStaging(options: Pick<MockServiceOptions, 'clock'> = {}) {
  const service = createMockService({
    ...options,
    allowPrivateUrls: true,
    fetch: loopbackOnly,
    logger: quietLogger,
  });
  const next: FetchLike = (req) => service.fetch(req);
  const live: Live = new Set();
  const fetchFn: FetchLike = async (req) => {
    const path = pathOf(req);
    // The signed voice_urls stay readable; the rest of the mock's control API is not this staging's.
    if (path.startsWith('/__mock/voice-audio/')) return next(req);
    const wrong = unrouted(req);
    if (wrong) return wrong;
    if (isSynthesis(req)) return synthesis(req, next);
    if (isSave(req)) return save(req, next, live);
    if (isList(req)) return list(req, next);
    if (isUpload(req)) return upload(req, next);
    if (req.method === 'DELETE') return remove(req, next, live);
    return next(req);
  };
  return { fetch: fetchFn, service };
}
