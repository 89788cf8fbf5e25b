/**
 * Deviations a single answer does not show: a write that changes (or fails to change) a view the case
 * did not look at. The suite catches them by observing the list, the free uses and synthesis before
 * and after each write (toolkit/views.ts). Each deviation keeps its own state for the one run it is in.
 */
import { errors } from '../../openapi/contract.js';
import {
  type Deviation,
  deletedId,
  isDelete,
  isList,
  isSave,
  isSynthesis,
  isUpload,
  jsonLike,
  keyOf,
  refuse,
} from './deviation-kit.js';

type Obj = Record<string, unknown>;

async function jsonOf(res: Response): Promise<Obj | undefined> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return undefined;
  return (await res.clone().json()) as Obj;
}

async function savedId(req: Request): Promise<string | undefined> {
  const id = (
    (await req
      .clone()
      .json()
      .catch(() => ({}))) as Obj
  ).voice_id;
  return typeof id === 'string' ? id.trim().toLowerCase() : undefined;
}

/** Rewrite the data of a 200 list answer. */
async function editList(res: Response, edit: (data: Obj) => Obj): Promise<Response> {
  const body = await jsonOf(res);
  if (res.status !== 200 || !body) return res;
  return jsonLike(res, { ...body, data: edit(body.data as Obj) });
}

/** The free uses a list shows, lowered by `n` (never below 0). */
const lowerFree = (data: Obj, n: number): Obj => ({
  ...data,
  remainingFreeCloneCount: Math.max(0, Number(data.remainingFreeCloneCount) - n),
});

function refusedSaveCostsFreeUse(): Deviation['handle'] {
  let refused = 0;
  return async (req, next) => {
    const res = await next(req);
    if (isSave(req) && res.status >= 400) refused += 1;
    return isList(req) ? editList(res, (d) => lowerFree(d, refused)) : res;
  };
}

function saveCostsTwo(): Deviation['handle'] {
  let saved = 0;
  return async (req, next) => {
    const res = await next(req);
    if (isSave(req) && res.status === 200) saved += 1;
    return isList(req) ? editList(res, (d) => lowerFree(d, saved)) : res;
  };
}

/** List answers cached per key and query: a save empties the cache, a delete does not. */
function listCachedAcrossDelete(): Deviation['handle'] {
  const cache = new Map<string, { body: string; headers: Headers }>();
  return async (req, next) => {
    if (isSave(req)) cache.clear();
    if (!isList(req)) return next(req);
    const at = `${keyOf(req)} ${new URL(req.url).search}`;
    const hit = cache.get(at);
    if (hit) return new Response(hit.body, { status: 200, headers: hit.headers });
    const res = await next(req);
    if (res.status === 200)
      cache.set(at, { body: await res.clone().text(), headers: new Headers(res.headers) });
    return res;
  };
}

/** A voice that spoke once stays selectable after its delete (a voice lookup cached by id). */
function deletedVoiceStillSpeaks(): Deviation['handle'] {
  const spoken = new Set<string>();
  const deleted = new Set<string>();
  return async (req, next) => {
    if (isDelete(req)) {
      const res = await next(req);
      if (res.status === 200) deleted.add(deletedId(req));
      return res;
    }
    if (!isSynthesis(req)) return next(req);
    const body = (await req
      .clone()
      .json()
      .catch(() => ({}))) as Obj;
    const id = typeof body.voice_id === 'string' ? body.voice_id : '';
    if (deleted.has(id) && spoken.has(id))
      return next(new Request(req, { body: JSON.stringify({ ...body, voice_id: 'system_default' }) }));
    const res = await next(req);
    if (res.status === 200) spoken.add(id);
    return res;
  };
}

/** Deleting a voice also deletes the voice saved before it. */
function deleteTakesNeighbour(): Deviation['handle'] {
  const saved: string[] = [];
  return async (req, next) => {
    if (isSave(req)) {
      const id = await savedId(req);
      const res = await next(req);
      if (res.status === 200 && id) saved.push(id);
      return res;
    }
    if (!isDelete(req)) return next(req);
    const res = await next(req);
    const id = deletedId(req);
    const at = saved.indexOf(id);
    const other = at > 0 ? saved[at - 1] : undefined;
    if (res.status === 200 && other) {
      const url = new URL(`/v1/voice/${encodeURIComponent(other)}`, req.url);
      await next(new Request(url, { method: 'DELETE', headers: { 'x-api-key': keyOf(req) } }));
    }
    return res;
  };
}

/** A refused save still shows its voice on the first list page. */
function refusedSaveListed(): Deviation['handle'] {
  const refused: string[] = [];
  return async (req, next) => {
    if (isSave(req)) {
      const id = await savedId(req);
      const res = await next(req);
      const code = (await jsonOf(res))?.error_code;
      if (res.status >= 400 && code !== errors.voiceIdTaken.code && id && /^[a-z0-9_-]{1,30}$/.test(id))
        refused.push(id);
      return res;
    }
    const res = await next(req);
    if (!isList(req) || new URL(req.url).searchParams.has('voice_id')) return res;
    return editList(res, (d) => {
      const list = (d.list ?? []) as Obj[];
      const extra = refused.map((voice_id) => ({
        voice_id,
        voice_url: `${new URL(req.url).origin}/voices/${voice_id}.wav`,
        created_at: Math.floor(Date.now() / 1000),
      }));
      return { ...d, list: [...extra, ...list], total: Number(d.total) + extra.length };
    });
  };
}

/** Refused uploads count against the user's hourly quota (every key but the other organization's). */
function refusedUploadSpendsQuota(): Deviation['handle'] {
  let counted = 0;
  return async (req, next) => {
    if (!isUpload(req) || keyOf(req) === 'mock-key-other-org') return next(req);
    if (counted >= 30) {
      return refuse(errors.uploadRateLimited.status, errors.uploadRateLimited.code, 'upload quota exceeded');
    }
    const res = await next(req);
    counted += 1;
    return res;
  };
}

/** A delete refused to another organization's key still removes the voice. */
function refusedDeleteRemoves(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    if (isDelete(req) && keyOf(req) === 'mock-key-other-org') {
      const headers = new Headers(req.headers);
      headers.set('x-api-key', 'mock-key');
      await next(new Request(req.url, { method: 'DELETE', headers }));
    }
    return res;
  };
}

/** A successful save is never listed. */
function savedNotListed(): Deviation['handle'] {
  const hidden = new Set<string>();
  return async (req, next) => {
    if (isSave(req)) {
      const id = await savedId(req);
      const res = await next(req);
      if (res.status === 200 && id) hidden.add(id);
      return res;
    }
    const res = await next(req);
    if (!isList(req)) return res;
    return editList(res, (d) => ({
      ...d,
      list: ((d.list ?? []) as Obj[]).filter((v) => !hidden.has(String(v.voice_id))),
    }));
  };
}

/** Every case that writes, in the suite's order: the free uses are spent by the time most refusals come. */
const writers = ['upload.side-effects.*', 'voice-save.*', 'delete.*'];

export const viewDeviations: readonly Deviation[] = [
  {
    name: 'a refused save spends a free use (caught while other creations run)',
    only: writers,
    caughtBy: 'voice-save.free-uses.counter',
    message: /remainingFreeCloneCount went from \d+ to \d+ across the refused save.*§4\.2 rule 3/,
    handle: refusedSaveCostsFreeUse(),
  },
  {
    name: 'a save spends two free uses',
    only: ['voice-save.free-uses.counter'],
    caughtBy: 'voice-save.free-uses.counter',
    message: /across creating .*expected \d.*§4\.2 rule 3/,
    handle: saveCostsTwo(),
  },
  {
    name: 'a cached list keeps showing a deleted voice (a save empties the cache, a delete does not)',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message: /the deleted voice \S+ is still listed \(§4\.4, §4\.3\)/,
    handle: listCachedAcrossDelete(),
  },
  {
    name: 'a voice that spoke stays selectable after its delete',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message:
      /synthesis with the voice \S+ answered HTTP 200: a voice that does not exist must not speak|synthesis with the deleted voice/,
    handle: deletedVoiceStillSpeaks(),
  },
  {
    name: 'deleting a voice also deletes the voice saved before it',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message: /no request deleted are gone from the list.*§4\.4|its neighbour/,
    handle: deleteTakesNeighbour(),
  },
  {
    name: 'a refused save still lists its voice',
    only: ['voice-save.free-uses.counter'],
    caughtBy: 'voice-save.free-uses.counter',
    message: /the refused request created it \(§4\.2 rule 3, §4\.3\)/,
    handle: refusedSaveListed(),
  },
  {
    name: 'a refused upload spends the upload quota',
    only: ['upload.extension.*-refused', 'upload.request.*', 'upload.rate-limit.exceeded'],
    caughtBy: 'upload.rate-limit.exceeded',
    // A should: the run cannot see this user's uploads earlier in the hour.
    outcome: 'warn',
    message: /the upload quota ran out after \d+ accepted uploads.*refused uploads.*§8/,
    handle: refusedUploadSpendsQuota(),
  },
  {
    name: "a delete refused to another organization's key removes the voice",
    only: ['delete.scope.other-org'],
    caughtBy: 'delete.scope.other-org',
    message: /no request deleted are gone from the list.*§4\.4, §5\.4/,
    handle: refusedDeleteRemoves(),
  },
  {
    name: 'a successful save is not listed',
    only: ['voice-save.create.success'],
    caughtBy: 'voice-save.create.success',
    message: /the created voice \S+ is not listed \(§4\.2, §4\.3\)/,
    handle: savedNotListed(),
  },
];
