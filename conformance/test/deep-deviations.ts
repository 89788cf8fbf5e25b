/**
 * A round of deviations that only show after some state was built: a voice count against the page
 * size, the free uses running out, a delete between lists, a cursor held across a write, the N-th
 * upload; list caches, per-key caches, eventual consistency, effects across scopes, a 5xx at depth,
 * endless pagination, drifting timestamps. Each wraps a deployment that otherwise conforms (the kit's
 * mock) and keeps its own state, so `make()` gives a fresh one. Beside them, variations the spec
 * allows (other spellings of its silent points), which must give no finding. Shared by the explorer's
 * tests and the proxy's `--shadow` tests.
 */
import type { FetchLike } from '../toolkit/http.js';
import {
  cursorOf,
  isDelete,
  isList,
  isSave,
  isStream,
  isSynthesis,
  isUpload,
  jsonLike,
  keyOf,
  pageSizeOf,
  refuse,
} from './deviation-kit.js';

export type Wrapper = (req: Request, next: FetchLike) => Promise<Response>;

export interface DeepDeviation {
  readonly name: string;
  /** The family it belongs to (for the report). */
  readonly family: string;
  readonly make: () => Wrapper;
}

type Item = Record<string, unknown> & { voice_id: string };
interface ListData {
  list: Item[];
  has_more: boolean;
  next_voice_id?: string | null;
  total: number;
  remainingFreeCloneCount: number;
}

const query = (req: Request) => new URL(req.url).searchParams;
const bodyOf = async (req: Request): Promise<Record<string, unknown>> => {
  try {
    return (await req.clone().json()) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const savedId = async (req: Request) => {
  const id = (await bodyOf(req)).voice_id;
  return typeof id === 'string' ? id.trim().toLowerCase() : undefined;
};

/** A 200 list answer's data edited (anything else passes unchanged). */
async function editList(res: Response, edit: (d: ListData) => void): Promise<Response> {
  if (res.status !== 200) return res;
  const body = (await res.json()) as { data: ListData };
  edit(body.data);
  return jsonLike(res, body);
}

/** The key's first page as the deployment answers it now (a side request the client never sees). */
async function firstPage(req: Request, next: FetchLike): Promise<ListData | undefined> {
  const res = await next(
    new Request(new URL('/v1/voice/list?page_size=20', req.url), { headers: { 'x-api-key': keyOf(req) } }),
  );
  if (res.status !== 200) return undefined;
  return ((await res.json()) as { data: ListData }).data;
}

const serverError = () => refuse(500, 50000, 'internal error');

/** A last page that is exactly full says has_more, with a cursor that opens an empty page. */
const exactFitHasMore = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isList(req)) return res;
  return editList(res, (d) => {
    const size = pageSizeOf(req);
    if (!d.has_more && d.list.length === size && size < 20) {
      d.has_more = true;
      d.next_voice_id = d.list.at(-1)?.voice_id ?? null;
    }
  });
};

/** Page size + 1 voices: the page after a full one loses its single voice. */
const lonelyLastPageLost = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isList(req) || cursorOf(req) === null) return res;
  return editList(res, (d) => {
    if (d.list.length === 1 && !d.has_more && pageSizeOf(req) > 1) {
      d.list = [];
      d.total = 0;
    }
  });
};

/** `total` counts every voice of the scope, not the page's (when there is more than one page). */
const totalOfScope = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isList(req) || cursorOf(req) !== null) return res;
  const all = await firstPage(req, next);
  return editList(res, (d) => {
    if (d.has_more && all) d.total = Math.max(all.list.length, d.list.length + 1);
  });
};

/** The first creation past the free uses answers 200 but keeps nothing. */
const firstPaidCreationLost = (): Wrapper => {
  let lost = false;
  return async (req, next) => {
    if (!isSave(req) || lost) return next(req);
    const before = await firstPage(req, next);
    if (before?.remainingFreeCloneCount !== 0) return next(req);
    const id = await savedId(req);
    lost = true;
    return new Response(
      JSON.stringify({ error_code: 0, error_message: '', succeed: true, data: { voice_id: id } }),
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
      },
    );
  };
};

/** Creations past the free uses count them below 0. */
const freeUsesBelowZero = (): Wrapper => {
  const paid = new Map<string, number>();
  return async (req, next) => {
    if (isSave(req)) {
      const before = await firstPage(req, next);
      const res = await next(req);
      if (res.status === 200 && before?.remainingFreeCloneCount === 0)
        paid.set(keyOf(req), (paid.get(keyOf(req)) ?? 0) + 1);
      return res;
    }
    const res = await next(req);
    if (!isList(req)) return res;
    return editList(res, (d) => {
      if (d.remainingFreeCloneCount === 0) d.remainingFreeCloneCount = -(paid.get(keyOf(req)) ?? 0);
    });
  };
};

/** The 4th accepted upload of a key answers 500. */
const fourthUpload500 = (): Wrapper => {
  const uploads = new Map<string, number>();
  return async (req, next) => {
    if (!isUpload(req)) return next(req);
    const n = (uploads.get(keyOf(req)) ?? 0) + 1;
    if (n === 4) {
      uploads.set(keyOf(req), n);
      return serverError();
    }
    const res = await next(req);
    if (res.status === 200) uploads.set(keyOf(req), n);
    return res;
  };
};

/** A list cache per key that a save clears and a delete does not. */
const cacheClearedBySavesOnly = (): Wrapper => {
  const cache = new Map<string, { status: number; body: string }>();
  return async (req, next) => {
    if (isList(req)) {
      const hit = cache.get(`${keyOf(req)} ${req.url}`);
      if (hit)
        return new Response(hit.body, {
          status: hit.status,
          headers: { 'content-type': 'application/json' },
        });
      const res = await next(req);
      const body = await res.text();
      if (res.status === 200) cache.set(`${keyOf(req)} ${req.url}`, { status: 200, body });
      return new Response(body, { status: res.status, headers: res.headers });
    }
    const res = await next(req);
    if (isSave(req) && res.status === 200)
      for (const k of [...cache.keys()]) if (k.startsWith(`${keyOf(req)} `)) cache.delete(k);
    return res;
  };
};

/** A list cache per key that only the writing key's writes clear: other keys of the scope read stale pages. */
const cachePerKey = (): Wrapper => {
  const cache = new Map<string, string>();
  return async (req, next) => {
    if (isList(req)) {
      const hit = cache.get(`${keyOf(req)} ${req.url}`);
      if (hit) return new Response(hit, { status: 200, headers: { 'content-type': 'application/json' } });
      const res = await next(req);
      const body = await res.text();
      if (res.status === 200) cache.set(`${keyOf(req)} ${req.url}`, body);
      return new Response(body, { status: res.status, headers: res.headers });
    }
    const res = await next(req);
    if ((isSave(req) || isDelete(req)) && res.status === 200)
      for (const k of [...cache.keys()]) if (k.startsWith(`${keyOf(req)} `)) cache.delete(k);
    return res;
  };
};

/** Streaming refuses a voice for 3 s after its save (complete synthesis does not). */
const streamNotReadyAfterSave = (): Wrapper => {
  const savedAt = new Map<string, number>();
  return async (req, next) => {
    if (isStream(req)) {
      const id = (await bodyOf(req)).voice_id;
      const at = typeof id === 'string' ? savedAt.get(id) : undefined;
      if (at !== undefined && Date.now() - at < 3_000) return refuse(404, 10002, 'voice not ready');
    }
    const id = isSave(req) ? await savedId(req) : undefined;
    const res = await next(req);
    if (id && res.status === 200) savedAt.set(id, Date.now());
    return res;
  };
};

/** A delete by any key deletes the voice of that id under every key seen (another organization's too). */
const deleteAcrossScopes = (): Wrapper => {
  const keys = new Set<string>();
  return async (req, next) => {
    if (keyOf(req)) keys.add(keyOf(req));
    const res = await next(req);
    if (isDelete(req) && res.status === 200)
      for (const k of keys)
        if (k !== keyOf(req))
          await next(new Request(req.url, { method: 'DELETE', headers: { 'x-api-key': k } })).then((r) =>
            r.arrayBuffer(),
          );
    return res;
  };
};

/** A creation by one key also spends a free use of every other key's account, shown on its lists. */
const creationSpendsOthers = (): Wrapper => {
  const spentBy = new Map<string, number>();
  return async (req, next) => {
    const res = await next(req);
    if (isSave(req) && res.status === 200) spentBy.set(keyOf(req), (spentBy.get(keyOf(req)) ?? 0) + 1);
    if (!isList(req)) return res;
    const others = [...spentBy].filter(([k]) => k !== keyOf(req)).reduce((n, [, c]) => n + c, 0);
    return editList(res, (d) => {
      d.remainingFreeCloneCount = Math.max(0, d.remainingFreeCloneCount - others);
    });
  };
};

/** The third page of a walk (a cursor two pages deep) answers 500. */
const thirdPage500 = (): Wrapper => {
  const depth = new Map<string, number>();
  return async (req, next) => {
    if (!isList(req)) return next(req);
    const cursor = cursorOf(req);
    const page = cursor === null ? 0 : (depth.get(`${keyOf(req)} ${cursor}`) ?? 1);
    if (page >= 2) return serverError();
    const res = await next(req);
    return editList(res, (d) => {
      if (d.has_more && d.next_voice_id) depth.set(`${keyOf(req)} ${d.next_voice_id}`, page + 1);
    });
  };
};

/** A walk of two or more pages never ends: its last page points back to its first voice. */
const endlessPagination = (): Wrapper => {
  const firstOf = new Map<string, string>();
  return async (req, next) => {
    if (!isList(req)) return next(req);
    const cursor = cursorOf(req);
    const res = await next(req);
    return editList(res, (d) => {
      const start = cursor === null ? d.list[0]?.voice_id : firstOf.get(`${keyOf(req)} ${cursor}`);
      if (d.has_more && d.next_voice_id && start) firstOf.set(`${keyOf(req)} ${d.next_voice_id}`, start);
      if (cursor !== null && !d.has_more && start) {
        d.has_more = true;
        d.next_voice_id = start;
      }
    });
  };
};

/** After a delete, the key's remaining voices list with `created_at` an hour later. */
const createdAtAfterDelete = (): Wrapper => {
  const deleted = new Set<string>();
  return async (req, next) => {
    const res = await next(req);
    if (isDelete(req) && res.status === 200) deleted.add(keyOf(req));
    if (!isList(req) || !deleted.has(keyOf(req))) return res;
    return editList(res, (d) => {
      for (const v of d.list) if (typeof v.created_at === 'number') v.created_at += 3_600;
    });
  };
};

/** After a delete, each cursor page starts one voice early: the previous page's last voice comes twice. */
const repeatAfterDelete = (): Wrapper => {
  const deleted = new Set<string>();
  const lastBefore = new Map<string, Item>();
  return async (req, next) => {
    const res = await next(req);
    if (isDelete(req) && res.status === 200) deleted.add(keyOf(req));
    if (!isList(req)) return res;
    const cursor = cursorOf(req);
    return editList(res, (d) => {
      const prev = cursor === null ? undefined : lastBefore.get(`${keyOf(req)} ${cursor}`);
      if (prev && deleted.has(keyOf(req)) && !d.list.some((v) => v.voice_id === prev.voice_id)) {
        d.list = [prev, ...d.list].slice(0, pageSizeOf(req));
        d.total = d.list.length;
      }
      const last = d.list.at(-1);
      if (d.has_more && d.next_voice_id && last) lastBefore.set(`${keyOf(req)} ${d.next_voice_id}`, last);
    });
  };
};

/** A save refused for a too-long id keeps a voice under its first 30 characters. */
const refusedSaveKeepsTruncated = (): Wrapper => async (req, next) => {
  if (!isSave(req)) return next(req);
  const body = await bodyOf(req);
  const res = await next(req);
  const id = typeof body.voice_id === 'string' ? body.voice_id.trim().toLowerCase() : '';
  if (res.status !== 400 || id.length <= 30) return res;
  const kept = await next(
    new Request(req.url, {
      method: 'POST',
      headers: { 'x-api-key': keyOf(req), 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, voice_id: id.slice(0, 30) }),
    }),
  );
  await kept.arrayBuffer();
  return res;
};

/** Complete synthesis of a voice saved as the second (or later) of its key answers 500. */
const secondVoiceSpeaks500 = (): Wrapper => {
  const order = new Map<string, number>();
  const perKey = new Map<string, number>();
  return async (req, next) => {
    if (isSynthesis(req) && !isStream(req)) {
      const id = (await bodyOf(req)).voice_id;
      if (typeof id === 'string' && (order.get(`${keyOf(req)} ${id}`) ?? 0) >= 2) return serverError();
    }
    const id = isSave(req) ? await savedId(req) : undefined;
    const res = await next(req);
    if (id && res.status === 200) {
      const n = (perKey.get(keyOf(req)) ?? 0) + 1;
      perKey.set(keyOf(req), n);
      order.set(`${keyOf(req)} ${id}`, n);
    }
    return res;
  };
};

export const deepDeviations: readonly DeepDeviation[] = [
  { family: 'depth', name: 'an exactly full last page says has_more', make: exactFitHasMore },
  { family: 'depth', name: 'page size + 1 voices: the last voice is lost', make: lonelyLastPageLost },
  { family: 'depth', name: 'total counts the scope, not the page', make: totalOfScope },
  {
    family: 'depth',
    name: 'the first paid creation answers 200 and keeps nothing',
    make: firstPaidCreationLost,
  },
  { family: 'depth', name: 'free uses go below 0', make: freeUsesBelowZero },
  { family: 'depth', name: 'the 4th upload of a key answers 500', make: fourthUpload500 },
  {
    family: 'cache',
    name: 'a list cache that saves clear and deletes do not',
    make: cacheClearedBySavesOnly,
  },
  {
    family: 'cache',
    name: 'a list cache per key: other keys of the scope read stale pages',
    make: cachePerKey,
  },
  {
    family: 'consistency',
    name: 'streaming refuses a voice for 3 s after its save',
    make: streamNotReadyAfterSave,
  },
  { family: 'scope', name: 'a delete removes the voice of that id in every scope', make: deleteAcrossScopes },
  { family: 'scope', name: 'a creation spends the free uses of other accounts', make: creationSpendsOthers },
  { family: '5xx', name: 'the third page of a walk answers 500', make: thirdPage500 },
  { family: '5xx', name: 'the second voice of a key answers 500 when it speaks', make: secondVoiceSpeaks500 },
  { family: 'pagination', name: 'a walk of two pages or more never ends', make: endlessPagination },
  { family: 'timestamps', name: 'created_at moves an hour after a delete', make: createdAtAfterDelete },
  {
    family: 'pagination',
    name: 'after a delete, each cursor page repeats the previous page’s last voice',
    make: repeatAfterDelete,
  },
  {
    family: 'refusal',
    name: 'a save refused for a too-long id keeps a voice of its first 30 characters',
    make: refusedSaveKeepsTruncated,
  },
];

/** Every voice of the key, oldest first, walked through the deployment with pages of 20. */
async function allVoices(
  req: Request,
  next: FetchLike,
): Promise<{ items: Item[]; data: ListData } | undefined> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let data: ListData | undefined;
  for (let page = 0; page < 50; page++) {
    const url = new URL('/v1/voice/list', req.url);
    url.searchParams.set('page_size', '20');
    if (cursor) url.searchParams.set('voice_id', cursor);
    const res = await next(new Request(url, { headers: { 'x-api-key': keyOf(req) } }));
    if (res.status !== 200) return undefined;
    data = ((await res.json()) as { data: ListData }).data;
    items.push(...data.list);
    if (!data.has_more || !data.next_voice_id) break;
    cursor = data.next_voice_id;
  }
  return data && { items, data };
}

/**
 * Newest first across the whole walk (list-order is open): pages cut from the reversed list, the
 * cursor the id of the next page's first voice.
 */
const newestFirst = (): Wrapper => async (req, next) => {
  if (!isList(req)) return next(req);
  const size = query(req).get('page_size');
  if (size !== null && !/^\d+$/.test(size)) return next(req);
  const n = pageSizeOf(req);
  if (n < 1 || n > 20) return next(req);
  const all = await allVoices(req, next);
  if (!all) return next(req);
  const items = [...all.items].reverse();
  const cursor = cursorOf(req);
  const at = cursor === null ? 0 : items.findIndex((v) => v.voice_id === cursor);
  if (at < 0) return refuse(400, 10001, 'unknown cursor');
  const page = items.slice(at, at + n);
  const more = at + n < items.length;
  const data = {
    list: page,
    has_more: more,
    next_voice_id: more ? items[at + n]?.voice_id : null,
    total: page.length,
    remainingFreeCloneCount: all.data.remainingFreeCloneCount,
  };
  return new Response(JSON.stringify({ error_code: 0, error_message: '', succeed: true, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
};

/** A missing voice's delete answers 200 with `data` {} (delete-response-body is open). */
const deleteDataEmptyObject = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isDelete(req) || res.status !== 200) return res;
  const body = (await res.json()) as Record<string, unknown>;
  return jsonLike(res, { ...body, data: {} });
};

/** A duplicate id answers 400 (not 409) with 10018 (voice-save-statuses is open beyond 10001). */
const duplicateAs400 = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isSave(req) || res.status !== 409) return res;
  return jsonLike(res, await res.json(), 400);
};

/** A stream in chunks of 1 KiB (stream-chunking is open). */
const smallChunks = (): Wrapper => async (req, next) => {
  const res = await next(req);
  if (!isStream(req) || res.status !== 200 || !res.body) return res;
  const bytes = new Uint8Array(await res.arrayBuffer());
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.byteLength) return c.close();
      c.enqueue(bytes.slice(at, at + 1024));
      at += 1024;
    },
  });
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(body, { status: 200, headers });
};

/** page_size out of range answers 422 with 10001 (page-size-out-of-range is open). */
const pageSizeAs422 = (): Wrapper => async (req, next) => {
  const res = await next(req);
  return isList(req) && res.status === 400 ? jsonLike(res, await res.json(), 422) : res;
};

/** Allowed: each must give no finding. */
export const deepVariations: readonly { readonly name: string; readonly make: () => Wrapper }[] = [
  { name: 'the list newest first across pages (list-order)', make: newestFirst },
  { name: 'a delete answers data {} (delete-response-body)', make: deleteDataEmptyObject },
  { name: 'a duplicate id answers 400 / 10018 (voice-save-statuses)', make: duplicateAs400 },
  { name: 'a stream in 1 KiB chunks (stream-chunking)', make: smallChunks },
  { name: 'page_size out of range answers 422 (page-size-out-of-range)', make: pageSizeAs422 },
];
