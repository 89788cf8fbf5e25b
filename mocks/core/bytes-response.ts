/**
 * A Fetch Response whose body is bytes already in memory (JSON envelopes, complete audio), with the
 * body stream made only if someone asks for it. On Node 20 every `new Response(bytes)` builds a web
 * ReadableStream up front, which cost more than the rest of a list request; the Node adapter writes
 * these bytes in one call and never needs the stream, while MSW and in-process callers read the body
 * through the usual methods, which behave as those of a plain Response.
 *
 * @example
 * const bytes = new TextEncoder().encode('{"ok":true}');
 * const response = new BytesResponse(bytes, { status: 200, headers: { 'Content-Type': 'application/json' } });
 * await response.json(); // { ok: true }
 */
export class BytesResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #real: Response | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  /** The plain Response that holds the body, made on first use of the body. */
  #body(): Response {
    this.#real ??= new Response(this.#bytes, { headers: this.headers });
    return this.#real;
  }

  /** The bytes, for an adapter to write at once; undefined once the body has been read as a stream. */
  get unreadBytes(): Uint8Array | undefined {
    return this.#real ? undefined : this.#bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#body().body as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  override get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#body().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#body().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#body().formData();
  }

  override json(): Promise<unknown> {
    return this.#body().json();
  }

  override text(): Promise<string> {
    return this.#body().text();
  }

  override clone(): Response {
    if (this.bodyUsed) return super.clone(); // throws the usual TypeError
    return new BytesResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}
