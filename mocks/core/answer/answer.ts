/**
 * The answer transport of the core: how an answer travels from an operation to an adapter. Bytes
 * already in memory (every JSON envelope, complete audio from the cache) are a `BytesAnswer`; audio
 * made chunk by chunk (streamed, or complete with its Content-Length) and any answer with `Prefer`
 * faults is a `StreamAnswer`; a connection dropped with no answer is `dropped`. Each becomes a Fetch
 * `Response` with `toResponse()` at the Fetch boundary (MSW, in-process); the Node server writes them
 * itself. What the bytes say (the §2.1 envelope) lives in envelope.ts. Imports nothing of the kit.
 */
/**
 * An answer whose body is bytes already in memory: every JSON envelope, cached complete audio. The
 * core passes these around instead of Fetch Responses, because on Node 20 a Response (its Headers,
 * its body stream) costs more than the rest of a list answer: the Node adapter writes one in a single
 * `res.end`, as a bare node:http server does, and only a Fetch caller (MSW, in-process) gets a
 * Response made of it.
 * It always carries its Content-Length, so every adapter sends it unchunked.
 *
 * @example
 * const answer = new BytesAnswer(200, new TextEncoder().encode('{}'), { 'Content-Type': 'application/json' });
 * await answer.toResponse().json(); // {}
 */
export class BytesAnswer {
  constructor(
    readonly status: number,
    /** Shared, never copied here: keep them unchanged (a Response made of them gets a copy). */
    readonly bytes: Uint8Array,
    /** Header names as sent, Content-Length aside (it is always the length of `bytes`). */
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  toResponse(): Response {
    const headers = { ...this.headers, 'Content-Length': String(this.bytes.byteLength) };
    // 304 (and 204) answers have no body: Response refuses one.
    const body = this.status === 304 || this.status === 204 ? null : this.bytes.slice();
    return new Response(body, { status: this.status, headers });
  }
}

/** Where the chunks of a streamed answer come from, pulled one at a time by whoever sends them. */
export interface ChunkSource {
  /** The next chunk; a promise of it when the source waits first (pacing, a yield); undefined at the end. */
  pull(): Uint8Array | undefined | Promise<Uint8Array | undefined>;
  /** The reader went away: make no more chunks. */
  cancel(): void;
}

/**
 * An answer whose body is made chunk by chunk as it is sent: streamed audio, and complete audio (with
 * its Content-Length in `headers`, so it is sent unchunked). The Node adapter pulls the chunks itself,
 * one `res.write` each, with no promise per chunk where a chunk is ready at once;
 * a Fetch caller gets a Response whose body stream pulls them. A ReadableStream in between cost a
 * read promise, a pull promise and their reactions per 100 ms chunk: twice the garbage collections
 * of the synthesis itself. Read it once.
 *
 * @example
 * const answer = new StreamAnswer(200, { pull: () => undefined, cancel() {} }, { 'Content-Type': 'audio/wav' });
 * await answer.toResponse().arrayBuffer(); // empty
 */
export class StreamAnswer {
  constructor(
    readonly status: number,
    readonly source: ChunkSource,
    /** Header names as sent; a Content-Length only when the length is known (else the body is chunked). */
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  toResponse(): Response {
    const { source } = this;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const chunk = await source.pull();
          if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
        cancel() {
          source.cancel();
        },
      },
      // A chunk is made only when the reader asks for it.
      { highWaterMark: 0 },
    );
    return new Response(body, { status: this.status, headers: this.headers });
  }
}

/**
 * No answer at all: the connection is dropped (`Prefer: fault=reset`, or a client that went away while
 * its audio was being built). A Fetch caller gets a network error (`Response.error()`); the Node server
 * destroys the socket.
 */
export class DroppedAnswer {
  /** As the status of a Fetch network error. */
  readonly status = 0;

  toResponse(): Response {
    return Response.error();
  }
}

/** The one dropped answer. */
export const dropped = new DroppedAnswer();

/** What an operation or the control API answers: bytes in memory, a stream of chunks, or nothing. */
export type Answer = BytesAnswer | StreamAnswer | DroppedAnswer;

/** The Fetch Response of an answer, for callers of `fetch`. */
export const asResponse = (answer: Answer): Response => answer.toResponse();

const encoder = new TextEncoder();

const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' });

/**
 * A JSON answer.
 *
 * @example
 * jsonAnswer(200, { error_code: 0, error_message: '', succeed: true, data: null });
 */
export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): BytesAnswer {
  const all = headers ? { ...jsonHeaders, ...headers } : jsonHeaders;
  return new BytesAnswer(status, encoder.encode(JSON.stringify(body)), all);
}

/** A 200 JSON answer of bytes made already (shared, not copied). */
export const jsonBytesAnswer = (bytes: Uint8Array<ArrayBuffer>): BytesAnswer =>
  new BytesAnswer(200, bytes, jsonHeaders);
