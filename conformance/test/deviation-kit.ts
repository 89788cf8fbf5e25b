/**
 * A test-only fetch wrapper that makes the mock deviate from the spec in one named way, so the suite
 * can be shown to catch it. Deviations rewrite requests on the way in or responses on the way out.
 */
import type { FetchLike } from '../toolkit/http.js';

/** One deliberate deviation from a rule, and the case that must catch it. */
export interface Deviation {
  /** Named after the rule it breaks. */
  readonly name: string;
  /** Case id patterns to run (a subset keeps the harness fast). */
  readonly only: readonly string[];
  /** The case that must fail because of it. */
  readonly caughtBy: string;
  /** What the catching case ends as: `fail` (default; the run is not ok) or `warn` (a should-level check). */
  readonly outcome?: 'fail' | 'warn';
  /** A finding of the catching case must match it: the deviation is caught by the check meant for it. */
  readonly message?: RegExp;
  readonly handle: (req: Request, next: FetchLike) => Promise<Response>;
}

export const pathOf = (req: Request) => new URL(req.url).pathname;
export const isSynthesis = (req: Request) => pathOf(req).startsWith('/v1/text-to-speech');
export const isStream = (req: Request) => pathOf(req) === '/v1/text-to-speech/stream';
export const isUpload = (req: Request) => pathOf(req) === '/v1/files/upload';
export const isList = (req: Request) => pathOf(req) === '/v1/voice/list';
export const isSave = (req: Request) => pathOf(req) === '/v1/voice/save';
export const isDelete = (req: Request) => req.method === 'DELETE' && pathOf(req).startsWith('/v1/voice/');
/** The voice a DELETE names. */
export const deletedId = (req: Request) => decodeURIComponent(pathOf(req).slice('/v1/voice/'.length));
export const keyOf = (req: Request) => req.headers.get('x-api-key') ?? '';
/** A list's cursor and page size as sent. */
export const cursorOf = (req: Request) => new URL(req.url).searchParams.get('voice_id');
export const pageSizeOf = (req: Request) => Number(new URL(req.url).searchParams.get('page_size') ?? 20);

/** A JSON response with the given body and the headers of `like` (minus the length, which changes). */
export function jsonLike(like: Response, body: unknown, status = like.status): Response {
  const headers = new Headers(like.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Response(JSON.stringify(body), { status, headers });
}

/** Rewrite the JSON body of responses that `when` selects. */
export function rewriteJson(
  when: (req: Request, res: Response) => boolean,
  edit: (body: Record<string, unknown>, req: Request) => unknown,
  status?: (res: Response) => number,
): (req: Request, next: FetchLike) => Promise<Response> {
  return async (req, next) => {
    const res = await next(req);
    if (!when(req, res) || !(res.headers.get('content-type') ?? '').includes('json')) return res;
    const body = (await res.json()) as Record<string, unknown>;
    return jsonLike(res, edit(body, req), status ? status(res) : res.status);
  };
}

/** Rewrite the JSON body of a request (synthesis, save) before it reaches the mock. */
export function rewriteRequestJson(
  when: (req: Request) => boolean,
  edit: (body: Record<string, unknown>) => Record<string, unknown>,
): (req: Request, next: FetchLike) => Promise<Response> {
  return async (req, next) => {
    if (!when(req)) return next(req);
    const body = (await req.clone().json()) as Record<string, unknown>;
    return next(new Request(req, { body: JSON.stringify(edit(body)) }));
  };
}

/** The whole body, then a new Response with these headers: a buffered answer. */
export async function buffered(
  res: Response,
  headers: (h: Headers, size: number) => void,
): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const h = new Headers(res.headers);
  headers(h, bytes.byteLength);
  return new Response(bytes, { status: res.status, headers: h });
}

/** An error envelope answered without reaching the mock. */
export function refuse(status: number, code: number, message: string): Response {
  return new Response(
    JSON.stringify({ error_code: code, error_message: message, succeed: false, data: null }),
    {
      status,
      headers: { 'content-type': 'application/json' },
    },
  );
}

/**
 * A variation the spec allows (or does not rule out): the named case must still pass with it, so the
 * suite gives no false failure.
 */
export interface Variation {
  readonly name: string;
  readonly only: readonly string[];
  /** The case that must pass despite it. */
  readonly passes: string;
  readonly handle: (req: Request, next: FetchLike) => Promise<Response>;
}

/** Wrap a fetch with one deviation. */
export function deviating(base: FetchLike, d: Pick<Deviation, 'handle'>): FetchLike {
  return (req) => d.handle(req, base);
}
