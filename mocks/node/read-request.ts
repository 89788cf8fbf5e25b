// Kept in the declaration file, which names Node's types: a consumer's TypeScript then loads
// @types/node for it even where its "types" list leaves @types/node out (TypeScript 6's default).
/// <reference types="node" preserve="true" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreRequest } from '../core/context.js';
import { BodyStalled, type DiscardingBody } from '../core/request/request-body.js';
import type { HeaderSource } from '../core/state/exchange.js';

/** Requests whose body stalled (no byte for the body timeout): their connection is closed after the 408. */
export const stalledRequests = new WeakSet<IncomingMessage>();

/**
 * A timer that fails a body read when the client sends nothing for `ms` while the body is wanted.
 * Restarted by every chunk; a body the reader is not asking for (paused for backpressure) never times
 * out, only one the client stopped sending.
 */
function stallTimer(req: IncomingMessage, ms: number, onStall: (error: BodyStalled) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => clearTimeout(timer);
  const start = () => {
    stop();
    timer = setTimeout(() => {
      stalledRequests.add(req);
      onStall(new BodyStalled(ms));
    }, ms);
  };
  req.once('end', stop);
  req.once('close', stop);
  return { start, stop };
}

/**
 * A web stream over the request body that reads from the socket only as fast as the core consumes
 * (Node 20's Readable.toWeb buffers ahead when the consumer is slower, e.g. writing to disk). It errors
 * with BodyStalled when the client stops sending for `stallMs` while the core waits for data.
 */
function bodyStream(req: IncomingMessage, stallMs: number): DiscardingBody {
  let failed = false;
  let fail: (error: BodyStalled) => void = () => {};
  const timer = stallTimer(req, stallMs, (error) => fail(error));
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        fail = (error) => {
          failed = true;
          controller.error(error);
        };
        req.on('data', (chunk: Buffer) => {
          if (failed) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) {
            req.pause();
            timer.stop();
          } else timer.start();
        });
        req.once('end', () => !failed && controller.close());
        req.once('error', (error) => !failed && controller.error(error));
        req.pause();
      },
      pull() {
        timer.start();
        req.resume();
      },
      // The core cancels what it will not read (past a size limit): the rest of the body is thrown away
      // by Node as it arrives, with no chunk or promise per read, and the cancel resolves once it has
      // all arrived, so the answer still comes after the whole request.
      cancel() {
        timer.stop();
        failed = true;
        req.resume();
        if (req.complete || req.destroyed) return undefined;
        return new Promise<void>((resolve) => {
          req.once('end', resolve);
          req.once('close', resolve);
        });
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
  return Object.assign(stream, { discardsOnCancel: true as const });
}

/** Bodies up to this size with a declared Content-Length are read whole before the Request is built. */
const smallBodyBytes = 65_536;

/**
 * The absolute URLs of recent requests per origin and path, kept by one server: clients repeat the
 * same few, and one string made once is cheaper than joining (and later flattening) a new one per
 * request. Bounded by bytes whatever clients send: only paths and origins of at most `maxChars`
 * characters are kept, at most `capacity` of them in all origins together (emptied when full), so a
 * client that sends 16 KB paths through 64 Host values keeps nothing (that grew a mock by ~1 GB).
 */
export class RecentUrls {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  private size = 0;

  constructor(
    readonly capacity = 4096,
    readonly maxChars = 256,
  ) {}

  /** The absolute URL of a request target that came with this origin (its Host). */
  of(target: string, origin: string): string {
    // The usual origin-form path joins the origin as is; anything else (absolute-form, `//x`) goes
    // through URL resolution.
    if (!target.startsWith('/') || target.startsWith('//')) return new URL(target, origin).href;
    if (target.length > this.maxChars || origin.length > this.maxChars) return origin + target;
    let hrefs = this.byOrigin.get(origin);
    let href = hrefs?.get(target);
    if (href !== undefined) return href;
    if (this.size >= this.capacity) {
      this.byOrigin.clear();
      this.size = 0;
      hrefs = undefined;
    }
    if (!hrefs) {
      hrefs = new Map();
      this.byOrigin.set(origin, hrefs);
    }
    href = origin + target;
    hrefs.set(target, href);
    this.size += 1;
    return href;
  }

  /** How many URLs are kept now (for tests of the bound). */
  get kept(): number {
    return this.size;
  }
}

function readSmallBody(req: IncomingMessage, stallMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = stallTimer(req, stallMs, reject);
    timer.start();
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      timer.start();
    });
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

  /** Every header, as Fetch's `Headers.forEach` gives them: the request journal lists them when asked. */
  forEach(callback: (value: string, name: string) => void): void {
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2)
      callback(raw[i + 1] as string, (raw[i] as string).toLowerCase());
  }

  /** Whether `other` is Node's raw list of the same lines in the same order (the journal's sharing). */
  sameAs(other: HeaderSource): boolean {
    if (!(other instanceof NodeHeaders)) return false;
    const mine = this.#raw;
    const theirs = other.#raw;
    if (mine === theirs) return true;
    if (mine.length !== theirs.length) return false;
    for (let i = 0; i < mine.length; i++) if (mine[i] !== theirs[i]) return false;
    return true;
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
  url: string,
  stallMs: number,
): CoreRequest | Promise<CoreRequest> {
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') {
    return { method, url, headers: new NodeHeaders(req.rawHeaders), body: null, signal: answeredAtOnce };
  }
  return toBodyRequest(req, res, url, method, stallMs);
}

/** A web stream of one buffer, the whole of a small body already read. */
function wholeBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * A request whose small body is read whole: the core takes `bodyBytes`, and the web stream `body` is
 * made only for a reader that asks for one (making it and reading it back cost ~0.07 ms per request).
 */
class ReadBodyRequest implements CoreRequest {
  #body: ReadableStream<Uint8Array> | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: NodeHeaders,
    readonly bodyBytes: Uint8Array,
    readonly signal: AbortSignal,
  ) {}

  get body(): ReadableStream<Uint8Array> {
    this.#body ??= wholeBody(this.bodyBytes);
    return this.#body;
  }
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
  stallMs: number,
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
  if (!small) return { method, url, headers: new NodeHeaders(raw), body: bodyStream(req, stallMs), signal };
  const read = await readSmallBody(req, stallMs);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  return new ReadBodyRequest(method, url, new NodeHeaders(raw), bytes, signal);
}
