/**
 * The one place the suite touches the network: a fetch call that records the status, the headers, the
 * whole body and when its first and last bytes arrived. Works with global fetch, an MSW-backed fetch or
 * a mock service's in-process `fetch`.
 */

export type FetchLike = (input: Request) => Promise<Response>;

/** Seconds a request of the suite or the explorer may take, head and body, unless told otherwise. */
export const defaultRequestTimeoutSeconds = 30;

/** A request that got no complete answer before its deadline: what the run was waiting for, in words. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs / 1000} s (request timeout)`);
  }
}

/**
 * `fetchFn` with a deadline on every request, head and body: `msLeft()` is asked as each request
 * goes out (a fixed per-request timeout, or the time a run has left); the request's own signal
 * (Ctrl-C) and `stop()` (a run's deadline) still cancel it. A request past its deadline rejects, or its
 * body errors, with a {@link RequestTimeoutError}.
 *
 * One controller per request, fed by listeners that are removed when the body ends or the deadline
 * passes; the Requests are held until then. A Request made from another with a new signal follows it
 * weakly: once nothing held it, a collection took it and an abort never reached its fetch (seen with
 * Node 24's fetch); `AbortSignal.any` composites the same.
 *
 * @example
 * const fetchFn = withTimeout((req) => fetch(req), () => 30_000);
 */
export function withTimeout(fetchFn: FetchLike, msLeft: () => number, stop?: () => AbortSignal): FetchLike {
  return (req) => {
    const ms = Math.max(1, Math.ceil(msLeft()));
    const controller = new AbortController();
    const sources = [req.signal, ...(stop ? [stop()] : [])];
    const onAbort = (event: Event) => end((event.target as AbortSignal).reason);
    const sent = new Request(req, { signal: controller.signal });
    function end(reason?: unknown): void {
      // The timer holds this function, and so both Requests, until the answer ends or the deadline passes.
      void [req, sent];
      clearTimeout(timer);
      for (const s of sources) s.removeEventListener('abort', onAbort);
      if (reason !== undefined) controller.abort(reason);
    }
    const timer = setTimeout(() => end(new RequestTimeoutError(ms)), ms);
    // A finished request's timer must not keep the process alive.
    timer.unref?.();
    for (const s of sources) s.addEventListener('abort', onAbort);
    const early = sources.find((s) => s.aborted);
    if (early) end(early.reason);
    return fetchFn(sent).then(
      (res) => endsWithBody(res, () => end()),
      (e: unknown) => {
        end();
        throw controller.signal.aborted ? controller.signal.reason : e;
      },
    );
  };
}

/** `res` with `done` called once its body has been read to the end (at once when it has none). */
function endsWithBody(res: Response, done: () => void): Response {
  if (!res.body) {
    done();
    return res;
  }
  const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: done }));
  try {
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch {
    // A status a Response cannot be made with (1xx): the deadline's timer ends the listeners instead.
    return res;
  }
}

/** One request and its response, read to the end. */
export interface Exchange {
  /** `METHOD /path?query`, for messages. */
  readonly request: string;
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The body parsed as JSON when it parses; `undefined` otherwise. */
  readonly json: unknown;
  /** Milliseconds from sending to the response head, to the first body byte and to the last. */
  readonly headMs: number;
  readonly firstByteMs: number | null;
  readonly totalMs: number;
  /** How many separate reads delivered the body (1 for a buffered body, many for a stream). */
  readonly reads: number;
  /** Set when the body was cut short on purpose (`maxBytes`) or at its limit (`overLimit`). */
  readonly truncated: boolean;
  /** Set when the body went past `limitBytes` (the limit): the rest was not read. */
  readonly overLimit?: number;
  /** Set when the body ended abruptly (the connection closed mid-body): the reason. */
  readonly cutShort?: string;
}

export interface SendOptions {
  /** Stop reading after this many bytes (the status is all a probe needs). */
  readonly maxBytes?: number;
  /**
   * A body longer than this is not read further and the exchange says so (`overLimit`): a deployment
   * cannot make the run hold an unbounded answer. Default {@link answerLimitBytes}.
   */
  readonly limitBytes?: number;
  readonly signal?: AbortSignal;
}

/** What any answer is read to at most when the caller names no limit: far above any the contract makes. */
export const answerLimitBytes = 64 * 2 ** 20;

/** What is kept of an answer past its limit (the exchange says `overLimit`). */
const overLimitKeptBytes = 64 * 1024;

const decoder = new TextDecoder();

/** Decode a body as UTF-8 text (lossy), for messages and sniffing. */
export function bodyText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * Send a request and read the whole response.
 *
 * @example
 * const ex = await send(fetch, new Request('http://127.0.0.1:4010/v1/voice/list'));
 * console.log(ex.status, ex.json);
 */
export async function send(fetchFn: FetchLike, req: Request, options: SendOptions = {}): Promise<Exchange> {
  const url = new URL(req.url);
  const label = `${req.method} ${url.pathname}${url.search}`;
  const t0 = performance.now();
  const res = await fetchFn(req);
  const headMs = performance.now() - t0;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let reads = 0;
  let firstByteMs: number | null = null;
  let truncated = false;
  let overLimit: number | undefined;
  let cutShort: string | undefined;
  const limit = options.limitBytes ?? answerLimitBytes;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (e) {
        // Our own abort (Ctrl-C) or deadline stays an error; anything else is the deployment cutting the body.
        if (req.signal?.aborted || options.signal?.aborted || e instanceof RequestTimeoutError) throw e;
        const cause = (e as Error & { cause?: Error }).cause?.message;
        cutShort = `${(e as Error).message}${cause ? ` (${cause})` : ''}`;
        break;
      }
      const { done, value } = step;
      if (done) break;
      if (value.byteLength === 0) continue;
      reads += 1;
      if (firstByteMs === null) firstByteMs = performance.now() - t0;
      chunks.push(value);
      size += value.byteLength;
      const over = size > limit && (options.maxBytes === undefined || options.maxBytes > limit);
      if (over || (options.maxBytes !== undefined && size >= options.maxBytes)) {
        truncated = true;
        if (over) overLimit = limit;
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  }
  const totalMs = performance.now() - t0;
  // An answer past its limit is a finding by its size alone: its first bytes are kept for the message,
  // never a copy of the whole (the chunks go with this call).
  const bytes = overLimit === undefined ? concat(chunks, size) : head(chunks, overLimitKeptBytes);
  return {
    request: label,
    status: res.status,
    headers: res.headers,
    bytes,
    json: truncated ? undefined : parseJson(bytes),
    headMs,
    firstByteMs,
    totalMs,
    reads,
    truncated,
    ...(overLimit === undefined ? {} : { overLimit }),
    ...(cutShort === undefined ? {} : { cutShort }),
  };
}

/**
 * The body of `res` as text, at most `limit` bytes of it (the rest is cancelled, never read): for the
 * setup's own small answers (the preflight's list, the kit mock's control API).
 *
 * @example const text = await limitedText(await fetch(url), 65_536);
 */
export async function limitedText(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= limit) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return bodyText(concat(chunks, size).subarray(0, limit));
}

/** A copy of the first `n` bytes of `chunks`. */
function head(chunks: Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(
    Math.min(
      n,
      chunks.reduce((sum, c) => sum + c.byteLength, 0),
    ),
  );
  let at = 0;
  for (const c of chunks) {
    if (at >= out.byteLength) break;
    const part = c.subarray(0, out.byteLength - at);
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function parseJson(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return undefined;
  // Audio bodies are large and never JSON: only try when the body starts like JSON.
  const first = bytes.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  try {
    return JSON.parse(bodyText(bytes));
  } catch {
    return undefined;
  }
}
