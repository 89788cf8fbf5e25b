/**
 * Deviations a red team's proxy slipped past the suite, each now caught by a named case, and variations
 * the spec allows that must not fail a case (false failures it once reported).
 */
import type { FetchLike } from '../http.js';
import { type Deviation, isSave, type Variation } from './deviation-kit.js';

type Obj = Record<string, unknown>;

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
];

export const variations: readonly Variation[] = [];

export type { Obj };
