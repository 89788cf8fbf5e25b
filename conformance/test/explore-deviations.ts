/**
 * Deviations only a sequence shows, each behind a mock that otherwise conforms (deviation-kit.ts), and
 * a variation the spec allows, for the explorer's tests.
 */
import type { FetchLike } from '../toolkit/http.js';
import { isList, isSave, isSynthesis, pathOf, refuse } from './deviation-kit.js';

export interface SequenceDeviation {
  readonly name: string;
  /** The rules the explorer may report it by (one suffices). */
  readonly rules: readonly string[];
  /** A fresh wrapper (deviations keep state). */
  readonly make: () => (req: Request, next: FetchLike) => Promise<Response>;
}

/** A deleted voice stays on the pages read with a cursor (a pagination snapshot). */
const deletedListedUnderCursor = (): ((req: Request, next: FetchLike) => Promise<Response>) => {
  const deleted = new Map<string, Record<string, unknown>>();
  return async (req, next) => {
    if (req.method === 'DELETE') {
      const id = decodeURIComponent(pathOf(req).split('/').pop() ?? '');
      const list = await next(
        new Request(new URL('/v1/voice/list?page_size=20', req.url), { headers: req.headers }),
      );
      const entry = ((await list.json()) as { data?: { list?: Record<string, unknown>[] } }).data?.list?.find(
        (v) => v.voice_id === id,
      );
      const res = await next(req);
      if (res.status === 200 && entry) deleted.set(id, entry);
      return res;
    }
    // A first page opens a new walk: only voices deleted while a cursor is open come back.
    if (isList(req) && !new URL(req.url).searchParams.has('voice_id')) deleted.clear();
    const res = await next(req);
    if (!isList(req) || !new URL(req.url).searchParams.has('voice_id') || deleted.size === 0) return res;
    const body = (await res.json()) as { data: { list: unknown[]; total: number } };
    const size = Number(new URL(req.url).searchParams.get('page_size') ?? 20);
    body.data.list = [...deleted.values(), ...body.data.list].slice(0, size);
    body.data.total = body.data.list.length;
    return new Response(JSON.stringify(body), {
      status: res.status,
      headers: { 'content-type': 'application/json' },
    });
  };
};

type Voice = Record<string, unknown> & { voice_id: string };

/** Every voice the key lists now, page by page. */
async function wholeList(req: Request, next: FetchLike): Promise<Voice[]> {
  const all: Voice[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const url = new URL('/v1/voice/list', req.url);
    url.searchParams.set('page_size', '20');
    if (cursor) url.searchParams.set('voice_id', cursor);
    const res = await next(new Request(url, { headers: req.headers }));
    const data = (
      (await res.json()) as { data?: { list: Voice[]; has_more: boolean; next_voice_id: string } }
    ).data;
    if (!data) break;
    all.push(...data.list);
    if (!data.has_more) break;
    cursor = data.next_voice_id;
  }
  return all;
}

/**
 * Pagination from a snapshot: the pages after the first come from the list as it was when the first
 * page was read, so a voice deleted while a cursor is open is still listed on the pages it opens.
 */
const cursorSnapshot = (): ((req: Request, next: FetchLike) => Promise<Response>) => {
  const snapshots = new Map<string, Voice[]>();
  return async (req, next) => {
    if (!isList(req)) return next(req);
    const url = new URL(req.url);
    const key = req.headers.get('x-api-key') ?? '';
    const cursor = url.searchParams.get('voice_id');
    if (cursor === null) snapshots.set(key, await wholeList(req, next));
    const res = await next(req);
    const snap = snapshots.get(key);
    const at = snap?.findIndex((v) => v.voice_id === cursor) ?? -1;
    if (cursor === null || !snap || at < 0 || res.status !== 200) return res;
    const body = (await res.json()) as { data: Record<string, unknown> };
    const size = Number(url.searchParams.get('page_size') ?? 20);
    const page = snap.slice(at, at + size);
    const more = at + size < snap.length;
    body.data = {
      ...body.data,
      list: page,
      total: page.length,
      has_more: more,
      next_voice_id: more ? snap[at + size]?.voice_id : '',
    };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
};

/** The second creation does not use a free use (remainingFreeCloneCount is one too many after it). */
const freeCountStuck = (): ((req: Request, next: FetchLike) => Promise<Response>) => {
  let creations = 0;
  return async (req, next) => {
    const res = await next(req);
    if (isSave(req) && res.status === 200) creations++;
    if (!isList(req) || creations < 2 || res.status !== 200) return res;
    const body = (await res.json()) as { data: { remainingFreeCloneCount: number } };
    body.data.remainingFreeCloneCount += 1;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
};

/** Synthesis refuses a voice for 2 s after its save (not ready yet). */
const notReadyAfterSave = (): ((req: Request, next: FetchLike) => Promise<Response>) => {
  const savedAt = new Map<string, number>();
  return async (req, next) => {
    if (isSynthesis(req)) {
      const body = (await req.clone().json()) as { voice_id?: string };
      const at = body.voice_id === undefined ? undefined : savedAt.get(body.voice_id);
      if (at !== undefined && Date.now() - at < 2000) return refuse(404, 10002, 'voice not found');
    }
    const saved = isSave(req) ? ((await req.clone().json()) as { voice_id?: unknown }).voice_id : undefined;
    const res = await next(req);
    if (typeof saved === 'string' && res.status === 200) savedAt.set(saved.trim().toLowerCase(), Date.now());
    return res;
  };
};

export const sequenceDeviations: readonly SequenceDeviation[] = [
  {
    name: 'pages after the first come from a snapshot (a deleted voice stays listed under a cursor opened before)',
    rules: ['session.deleted-gone'],
    make: cursorSnapshot,
  },
  {
    name: 'a deleted voice stays listed under an open cursor',
    rules: ['session.deleted-gone', 'session.saved-listed'],
    make: deletedListedUnderCursor,
  },
  { name: 'the second creation leaves the free count', rules: ['session.free-uses'], make: freeCountStuck },
  {
    name: 'a saved voice is refused by synthesis for 2 s',
    rules: ['session.saved-selectable'],
    make: notReadyAfterSave,
  },
];

/** Allowed: a delete of a missing voice answers 404 (§4.4 "may return success"), and list pages of at most 5. */
export const allowedVariation =
  (): ((req: Request, next: FetchLike) => Promise<Response>) => async (req, next) => {
    if (req.method === 'DELETE') {
      const res = await next(req);
      if (res.status === 200 && pathOf(req).endsWith('ghost')) return refuse(404, 10002, 'voice not found');
      return res;
    }
    return next(req);
  };
