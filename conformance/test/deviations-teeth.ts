/**
 * Deviations a red team's proxy slipped past the suite, each now caught by a named case, and variations
 * the spec allows that must not fail a case (false failures it once reported).
 */
import type { FetchLike } from '../http.js';
import {
  type Deviation,
  isList,
  isSave,
  isSynthesis,
  rewriteJson,
  rewriteRequestJson,
  type Variation,
} from './deviation-kit.js';

type Obj = Record<string, unknown>;

/** A voice id of the run (custom), not a system voice. */
const isCustom = (id: unknown) => typeof id === 'string' && id.startsWith('vk_');

/** The same request with the main key: a deployment that ignores the key it was given. */
function withMainKey(req: Request, next: FetchLike): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.set('x-api-key', 'mock-key');
  return next(new Request(req, { headers }));
}

export const teethDeviations: readonly Deviation[] = [
  {
    name: 'a save without X-API-Key is answered for the request (the key is ignored: 400/20012)',
    only: ['auth.saveVoice.missing-key'],
    caughtBy: 'auth.saveVoice.missing-key',
    handle: (req, next) =>
      isSave(req) && !req.headers.has('x-api-key') ? withMainKey(req, next) : next(req),
  },
  {
    name: 'a custom voice is validated but the default voice speaks',
    only: ['synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    handle: rewriteRequestJson(isSynthesis, (b) =>
      isCustom(b.voice_id) ? { ...b, voice_id: 'system_default' } : b,
    ),
  },
  {
    name: 'speed is ignored for custom voices',
    only: ['synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    handle: rewriteRequestJson(isSynthesis, (b) => {
      if (!isCustom(b.voice_id)) return b;
      const { speed: _ignored, ...rest } = b;
      return rest;
    }),
  },
  {
    name: 'the list shows the system voice system_default',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200 && !new URL(req.url).searchParams.has('voice_id'),
      (b) => {
        const d = b.data as Obj;
        const list = [{ voice_id: 'system_default', voice_url: 'http://127.0.0.1:9/s.wav', created_at: 1 }];
        return { ...b, data: { ...d, list: [...list, ...(d.list as Obj[])], total: Number(d.total) + 1 } };
      },
    ),
  },
];

export const variations: readonly Variation[] = [];

export type { Obj };
