/**
 * The one place the suite touches the network: a fetch call that records the status, the headers, the
 * whole body and when its first and last bytes arrived. Works with global fetch, an MSW-backed fetch or
 * a mock service's in-process `fetch`.
 */

export type FetchLike = (input: Request) => Promise<Response>;

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
  /** Set when the body was cut short on purpose (`maxBytes`). */
  readonly truncated: boolean;
  /** Set when the body ended abruptly (the connection closed mid-body): the reason. */
  readonly cutShort?: string;
}

export interface SendOptions {
  /** Stop reading after this many bytes (the status is all a probe needs). */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

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
  let cutShort: string | undefined;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (e) {
        // Our own abort (Ctrl-C) stays an error; anything else is the deployment cutting the body.
        if (req.signal?.aborted || options.signal?.aborted) throw e;
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
      if (options.maxBytes !== undefined && size >= options.maxBytes) {
        truncated = true;
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  }
  const totalMs = performance.now() - t0;
  const bytes = concat(chunks, size);
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
    ...(cutShort === undefined ? {} : { cutShort }),
  };
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
