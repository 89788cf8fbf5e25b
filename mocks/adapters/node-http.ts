import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors } from '../../openapi/contract.js';
import type { CoreRequest } from '../core/context.js';
import type { BytesAnswer } from '../core/envelope.js';

/**
 * A web stream over the request body that reads from the socket only as fast as the core consumes
 * (Node 20's Readable.toWeb buffers ahead when the consumer is slower, e.g. writing to disk).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => controller.close());
        req.once('error', (error) => controller.error(error));
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        req.resume();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
}

/** Bodies up to this size with a declared Content-Length are read whole before the Request is built. */
const smallBodyBytes = 65_536;

// The absolute URLs of recent requests per origin and path: clients repeat the same few, and one
// string made once is cheaper than joining (and later flattening) a new one per request.
const recentHrefs = new Map<string, Map<string, string>>();

function requestUrl(req: IncomingMessage, origin: string): string {
  const path = req.url ?? '/';
  // The usual origin-form path joins the origin as is; anything else (absolute-form, `//x`) goes
  // through URL resolution.
  if (!path.startsWith('/') || path.startsWith('//')) return new URL(path, origin).href;
  let hrefs = recentHrefs.get(origin);
  if (!hrefs) {
    if (recentHrefs.size >= 64) recentHrefs.clear();
    hrefs = new Map();
    recentHrefs.set(origin, hrefs);
  }
  let href = hrefs.get(path);
  if (href === undefined) {
    if (hrefs.size >= 512) hrefs.clear();
    href = origin + path;
    hrefs.set(path, href);
  }
  return href;
}

function readSmallBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('aborted', () => reject(new Error('request aborted')));
  });
}

/**
 * A header of a Node request as Fetch's `Headers.get` gives it: the name in any case, every occurrence
 * joined with ", "; null when absent. Read from `rawHeaders`, the parser's own list: Node's
 * `req.headers` object is built on first use, which cost a list request more than the rest of its
 * header handling.
 */
export function rawHeader(raw: readonly string[], name: string): string | null {
  const wanted = name.toLowerCase();
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const candidate = raw[i] as string;
    if (candidate.length !== wanted.length || candidate.toLowerCase() !== wanted) continue;
    value = value === null ? (raw[i + 1] as string) : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/** The first Host header of a request (Node keeps the first of several), undefined without one. */
export function firstHost(raw: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') return raw[i + 1];
  }
  return undefined;
}

/** The headers of a body-less Node request, read as a Fetch `Headers.get` reads them. */
class NodeHeaders {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    return rawHeader(this.#raw, name);
  }
}

/** The signal of a request answered at once: nothing follows the client, so it never aborts. */
const answeredAtOnce = new AbortController().signal;

/**
 * The request the core gets from an incoming Node request; its `signal` aborts when the client goes
 * away before the answer is complete (requests with a body only). A GET or HEAD comes back at once as
 * a light `CoreRequest` over Node's own headers (no Fetch Request: on Node 20 one costs ~30 µs with its
 * Headers and AbortSignal, as much as the rest of a list answer); a small body with a Content-Length
 * (JSON) is read whole first, which spares a web stream per request; any other body is streamed,
 * never buffered.
 */
export function toRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): CoreRequest | Promise<CoreRequest> {
  const url = requestUrl(req, origin);
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') {
    return { method, url, headers: new NodeHeaders(req.rawHeaders), body: null, signal: answeredAtOnce };
  }
  return toBodyRequest(req, res, url, method);
}

/** A web stream of one buffer, the whole of a small body already read. */
function wholeBody(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0)
        controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      controller.close();
    },
  });
}

/**
 * A request with a body, as a light `CoreRequest` over Node's own headers, like a GET's: a Fetch
 * Request (its Headers copied from the raw list, its body wrapped by undici) cost a 5,000-character
 * stream ~0.3 ms before its first byte, and the core reads nothing but these fields.
 */
async function toBodyRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  method: string,
): Promise<CoreRequest> {
  const raw = req.rawHeaders;
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const signal = aborted.signal;
  const length = rawHeader(raw, 'content-length');
  const declared = length === null ? Number.NaN : Number(length);
  const small = rawHeader(raw, 'transfer-encoding') === null && declared >= 0 && declared <= smallBodyBytes;
  const body = small ? wholeBody(await readSmallBody(req)) : bodyStream(req);
  return { method, url, headers: new NodeHeaders(raw), body, signal };
}

/**
 * Told apart without `instanceof Headers`: the first read of the global `Headers` makes Node load its
 * whole Fetch implementation (undici, ~25 ms), which a server answering only in-memory bytes (the
 * first list, say) never needs. A plain record's values are strings, never a `forEach` method.
 */
function isFetchHeaders(own: Headers | Readonly<Record<string, string>>): own is Headers {
  return typeof (own as Headers).forEach === 'function';
}

/**
 * The head of a Node answer as one flat [name, value, ...] list for `res.writeHead`: `extra` (the
 * CORS headers) first, unless the answer sets the same header itself, then the answer's own.
 */
function headList(own: Headers | Readonly<Record<string, string>>, extra: readonly string[]): string[] {
  const list: string[] = [];
  const fetchHeaders = isFetchHeaders(own);
  const has = fetchHeaders ? (name: string) => own.has(name) : (name: string) => name in own;
  for (let i = 0; i + 1 < extra.length; i += 2) {
    const name = extra[i] as string;
    if (!has(name)) list.push(name, extra[i + 1] as string);
  }
  if (fetchHeaders) {
    own.forEach((value, name) => {
      list.push(name, value);
    });
  } else {
    for (const name in own) list.push(name, own[name] as string);
  }
  return list;
}

/** The head of each answer written, per CORS list: a kept answer (the list) is sent again and again. */
const heads = new WeakMap<BytesAnswer, { readonly extra: readonly string[]; readonly head: string[] }>();

/**
 * Writes an answer whose bytes are in memory with one `writeHead` and one `res.end`, as a bare
 * node:http server does.
 */
export function writeBytesAnswer(
  answer: BytesAnswer,
  res: ServerResponse,
  extra: readonly string[] = [],
): void {
  let kept = heads.get(answer);
  if (kept?.extra !== extra) {
    const head = headList(answer.headers, extra);
    head.push('Content-Length', String(answer.bytes.byteLength));
    kept = { extra, head };
    heads.set(answer, kept);
  }
  res.writeHead(answer.status, kept.head);
  res.end(answer.bytes);
}

/**
 * Writes a Fetch Response to a Node response with backpressure. A network-error Response
 * (`Prefer: fault=reset`) or a body that errors (`fault=cut-after-bytes`) destroys the socket, as a
 * real connection reset would; a client that goes away cancels the body, which stops synthesis.
 */
export async function writeResponse(
  response: Response,
  res: ServerResponse,
  extra: readonly string[] = [],
): Promise<void> {
  if (response.type === 'error') {
    res.socket?.destroy();
    return;
  }
  res.writeHead(response.status, headList(response.headers, extra));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // One 'close' listener for the whole answer. A `Promise.race` against a "closed" promise per chunk
  // (as this once did) leaves a reaction on that promise per chunk, each holding its chunk until the
  // answer ends: a 5,000-character stream kept its whole 20 MB alive and left a major GC to the next
  // request.
  let gone = false;
  const onClose = () => {
    gone = true;
    // A pending read ends (done) at once, and the body stops rendering.
    reader.cancel('client went away').catch(() => {});
  };
  res.once('close', onClose);
  // Writes handed to the socket and written out, counted with one callback for all of them (not a
  // promise per chunk), so that a body that errors can let what was written reach the client first.
  let sent = 0;
  let written = 0;
  let allWritten: (() => void) | undefined;
  const onWritten = () => {
    written++;
    if (written === sent) allWritten?.();
  };
  try {
    for (;;) {
      const next = await reader.read();
      if (gone || res.destroyed) {
        if (!gone) await reader.cancel('client went away');
        return;
      }
      if (next.done) break;
      sent++;
      res.write(next.value, onWritten);
      if (res.writableNeedDrain && !(await drained(res))) {
        await reader.cancel('client went away');
        return;
      }
    }
    res.off('close', onClose);
    res.end();
  } catch {
    // A body that errors is a connection cut: let the bytes already written reach the client first.
    if (written < sent)
      await Promise.race([new Promise<void>((resolve) => (allWritten = resolve)), closed(res)]);
    res.destroy();
  }
}

/** Resolves true on 'drain', false if the answer closes first; leaves no listener behind either way. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => {
      res.off('close', onClosed);
      resolve(true);
    };
    const onClosed = () => {
      res.off('drain', onDrain);
      resolve(false);
    };
    res.once('drain', onDrain);
    res.once('close', onClosed);
  });
}

function closed(res: ServerResponse): Promise<void> {
  return res.closed ? Promise.resolve() : new Promise((resolve) => res.once('close', () => resolve()));
}

/**
 * Answers what Node's HTTP parser refuses before any handler runs (huge headers, garbage) with the
 * envelope, instead of a bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : errors.invalidRequest.status;
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify({
    error_code: errors.invalidRequest.code,
    error_message: tooLarge ? 'request headers are too large' : `malformed HTTP request: ${error.message}`,
    succeed: false,
    data: null,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
