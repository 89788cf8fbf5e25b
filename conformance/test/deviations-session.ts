/**
 * Deviations that live across exchanges, caught only by the session rules of the one judge (judge/):
 * each is invisible to the case that made the change, and shows in a later case's ordinary traffic.
 */
import { type Deviation, isList, jsonLike, pathOf } from './deviation-kit.js';

type Obj = Record<string, unknown>;
const dataOf = (b: Obj) => b.data as Obj;
const itemsOf = (b: Obj) => (dataOf(b).list ?? []) as Obj[];
const isSaveOk = (req: Request, res: Response) => pathOf(req) === '/v1/voice/save' && res.status === 200;
const isFirstPage = (req: Request) => isList(req) && !new URL(req.url).searchParams.has('voice_id');

/** Lists first pages, and for each voice the number of first pages listed since it was saved or deleted. */
function stale(
  remember: (
    req: Request,
    res: Response,
    body: Obj | undefined,
    since: Map<string, { walks: number; item?: Obj }>,
  ) => void,
  edit: (body: Obj, since: Map<string, { walks: number; item?: Obj }>) => Obj,
): Deviation['handle'] {
  const since = new Map<string, { walks: number; item?: Obj }>();
  const seen = new Map<string, Obj>();
  return async (req, next) => {
    const res = await next(req);
    const json = (res.headers.get('content-type') ?? '').includes('json');
    const body = json ? ((await res.clone().json()) as Obj) : undefined;
    if (isList(req) && res.status === 200 && body)
      for (const item of itemsOf(body)) seen.set(String(item.voice_id), item);
    remember(req, res, body, since);
    for (const [id, s] of since) s.item ??= seen.get(id);
    if (!isList(req) || res.status !== 200 || !body) return res;
    if (isFirstPage(req)) for (const s of since.values()) s.walks += 1;
    return jsonLike(res, edit(body, since));
  };
}

export const sessionDeviations: readonly Deviation[] = [
  {
    name: 'a saved voice drops out of later lists (a list cache that forgot it)',
    only: ['voice-save.create.success', 'list.page.fields'],
    caughtBy: 'list.page.fields',
    handle: stale(
      (req, res, body, since) => {
        const id = body && isSaveOk(req, res) ? (dataOf(body)?.voice_id ?? undefined) : undefined;
        if (typeof id === 'string') since.set(id, { walks: 0 });
      },
      (body, since) => {
        // The walk right after the save still shows it: the saving case sees nothing wrong.
        const list = itemsOf(body).filter((v) => (since.get(String(v.voice_id))?.walks ?? 0) < 2);
        return { ...body, data: { ...dataOf(body), list, total: list.length } };
      },
    ),
  },
  {
    name: 'a deleted voice comes back in later lists (a stale list cache)',
    only: ['delete.voice.removed', 'delete.scope.other-org'],
    caughtBy: 'delete.scope.other-org',
    handle: stale(
      (req, res, _body, since) => {
        if (req.method !== 'DELETE' || res.status !== 200) return;
        const id = decodeURIComponent(pathOf(req).split('/').pop() ?? '');
        if (!since.has(id)) since.set(id, { walks: 0 });
      },
      (body, since) => {
        // The deleting case walks the list twice after its delete and sees it gone; later walks see it back.
        const back = [...since.entries()].filter(
          ([id, s]) => s.walks > 2 && !itemsOf(body).some((v) => v.voice_id === id),
        );
        if (back.length === 0 || dataOf(body).has_more) return body;
        // A voice deleted before any list showed it comes back as the cache would have kept it.
        const kept = ([id, s]: [string, { item?: Obj }]) =>
          s.item ?? {
            voice_id: id,
            voice_url: `https://cache.invalid/${id}?signature=0`,
            created_at: Math.floor(Date.now() / 1000),
          };
        const list = [...itemsOf(body), ...back.map(kept)];
        return { ...body, data: { ...dataOf(body), list, total: list.length } };
      },
    ),
  },
];
