import { type Failure, fail, isFailure, quoted } from '../answer/envelope.js';
import type { CoreRequest } from '../context.js';

/**
 * The error a request body fails with when it stops arriving (no byte for the adapter's body timeout):
 * the core answers it 408 (bodyStalled) where an answer can still be sent, and forgets what it read.
 */
export class BodyStalled extends Error {
  constructor(readonly ms: number) {
    super(`the request body stalled: no data for ${ms / 1000} s`);
  }
}

/** The most bytes of JSON one code point of text can take: an astral one escaped as `\ud83d\ude00`. */
const jsonBytesPerCodePoint = 12;

/** Room in a JSON body for everything but generate_text: voice_id, a ref_audio URL, options, whitespace. */
const jsonOtherFieldsBytes = 16_384;

/**
 * The largest JSON request body the service reads (a larger one is 400/10001 before it is parsed):
 * the largest valid request, a text of `maxTextLength` code points each written as escaped as JSON
 * allows, and the other fields. 136,384 bytes at the default 10,000 characters, so 300 clients holding
 * unfinished bodies keep ~40 MB, not the 300 MB a 1 MiB cap let them; and a larger configured text
 * length moves the cap with it.
 *
 * @example
 * const body = await readJsonBody(request, jsonBodyCap(deps.config.maxTextLength));
 */
export const jsonBodyCap = (maxTextLength: number): number =>
  maxTextLength * jsonBytesPerCodePoint + jsonOtherFieldsBytes;

/**
 * Reads and discards a body to its end, so the client (which may still be sending) gets to read the
 * answer. Memory stays flat whatever the size.
 *
 * @example
 * await drain(request.body);
 */
export async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body || body.locked) return;
  // A body that says so (the Node server's) is cancelled instead: its source lets the rest go as it
  // arrives and resolves once it has all come. A reading loop made a chunk and a promise of each: a
  // refused 1 GiB upload grew the server by 64–98 MiB on Node 24, against ~45 this way. Other bodies
  // (MSW's, a Request's) are read to their end, which is what makes them finish.
  if ((body as DiscardingBody).discardsOnCancel === true) {
    await body.cancel().catch(() => {});
    return;
  }
  const reader = body.getReader();
  let ended = false;
  try {
    while (!(await reader.read()).done) {
      // discard
    }
    ended = true;
  } catch {
    // the client went away; nothing left to drain
  } finally {
    letGo(reader, ended);
  }
}

/**
 * Lets go of a body's reader when the body may still be read (drained after a refusal); the reader of
 * a body read to its end is left as it is. Releasing a reader rejects its `closed` promise (a new one,
 * with a TypeError, once the stream has ended), and on Node that rejection left the whole process
 * slower at answering HTTP from then on: after one upload, whose form reader was released at its end,
 * a bare `node:http` handler inside the mock's process served the list at 76–91 % (median 83 %) of a
 * bare server's rate, against a median of 99 % in processes never seeded, and at 97–103 % once the
 * finished reader was left alone (interleaved runs).
 */
export function letGo(reader: ReadableStreamDefaultReader<Uint8Array>, ended: boolean): void {
  if (!ended) reader.releaseLock();
}

/** A body whose cancel() discards the rest of it and resolves once all of it has arrived. */
export interface DiscardingBody extends ReadableStream<Uint8Array> {
  readonly discardsOnCancel: true;
}

/** The media type of a Content-Type header value, lowercased, without parameters. */
export const mediaType = (contentType: string | null): string =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Reads a JSON request body of at most `cap` bytes: refuses another Content-Type, an empty or oversized
 * body (by its Content-Length before reading any of it, or once `cap` bytes have come), malformed JSON
 * or JSON nested deeper than `maxJsonDepth`, each as an invalidRequest failure saying which
 * (general-errors decision).
 *
 * @example
 * const body = await readJsonBody(request, jsonBodyCap(config.maxTextLength)); if (isFailure(body)) return render(body);
 */
export async function readJsonBody(request: CoreRequest, cap: number): Promise<unknown> {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== 'application/json') {
    if (!request.bodyBytes) await drain(request.body);
    return fail('invalidRequest', `Content-Type must be application/json, got ${quoted(type || 'none')}`);
  }
  const { bodyBytes } = request;
  if (bodyBytes) {
    if (bodyBytes.byteLength > cap) return fail('invalidRequest', `request body is larger than ${cap} bytes`);
    return parseJson([bodyBytes], bodyBytes.byteLength);
  }
  if (!request.body) return fail('invalidRequest', 'request body is empty; expected a JSON object');
  if (Number(request.headers.get('content-length')) > cap) {
    await drain(request.body);
    return fail('invalidRequest', `request body is larger than ${cap} bytes`);
  }
  const read = await readCapped(request.body, cap);
  return isFailure(read) ? read : parseJson(read.parts, read.size);
}

/** A body read to its end, at most `cap` bytes of it: a stalled, broken or oversized body is a failure. */
async function readCapped(
  body: ReadableStream<Uint8Array>,
  cap: number,
): Promise<Failure | { parts: Uint8Array[]; size: number }> {
  const reader = body.getReader();
  let read: Awaited<ReturnType<typeof readAtMost>>;
  try {
    read = await readAtMost(reader, cap);
  } catch (error) {
    reader.releaseLock();
    if (error instanceof BodyStalled) return fail('bodyStalled', error.message);
    return fail('invalidRequest', `request body could not be read: ${(error as Error).message}`);
  }
  reader.releaseLock();
  if (!read) {
    await drain(body);
    return fail('invalidRequest', `request body is larger than ${cap} bytes`);
  }
  return read;
}

/**
 * A JSON body a control endpoint may do without (POST /__mock/rate-limit/reset, /__mock/populate): a
 * request that sends no bytes (`curl -X POST`, no Content-Type, no Content-Length; or `-d ''`) reads as
 * `{}`; one that sends any is read as `readJsonBody` reads it (a Content-Type other than JSON refused).
 *
 * @example
 * const body = await readOptionalJsonBody(request, jsonBodyCap(deps.config.maxTextLength)); // {} for none
 */
export async function readOptionalJsonBody(request: CoreRequest, cap: number): Promise<unknown> {
  if (request.bodyBytes) return request.bodyBytes.byteLength === 0 ? {} : readJsonBody(request, cap);
  if (!request.body) return {};
  const read = await readCapped(request.body, cap);
  if (isFailure(read)) return read;
  if (read.size === 0) return {};
  const bodyBytes = new Uint8Array(read.size);
  let at = 0;
  for (const part of read.parts) {
    bodyBytes.set(part, at);
    at += part.byteLength;
  }
  const { method, url, headers, signal } = request;
  return readJsonBody({ method, url, headers, signal, body: null, bodyBytes }, cap);
}

/**
 * Reads a body to its end unless it passes `cap` bytes: then it stops reading and answers undefined,
 * leaving the rest to the caller (drain a request so the client reads the answer; cancel a fetch).
 *
 * @example
 * const read = await readAtMost(response.body.getReader(), limits.referenceMaxBytes.value);
 */
export async function readAtMost(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  cap: number,
): Promise<{ parts: Uint8Array[]; size: number } | undefined> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { parts, size };
    size += value.byteLength;
    if (size > cap) return undefined;
    parts.push(value);
  }
}

/**
 * How deep a JSON request body may nest objects and arrays. The service's bodies nest 2 levels, a
 * snapshot (POST /__mock/restore) 6; a body 5,000 levels deep made the request log's JSON.stringify
 * overflow the stack after the characters were billed, so it is refused before anything happens.
 */
export const maxJsonDepth = 32;

/**
 * Whether `text` holds more than `max` opening brackets (`{` and `[`, in strings or not), found by
 * `indexOf`: a text with fewer cannot nest deeper than `max`. A synthesis body has one, and its 5,000
 * characters are told so in ~0.1 µs, where the character scan below takes ~11 µs.
 */
function moreOpeningsThan(text: string, max: number): boolean {
  let openings = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i !== -1; i = text.indexOf(open, i + 1))
      if (++openings > max) return true;
  }
  return false;
}

/** Whether JSON text nests objects and arrays deeper than `max` (a scan of the text: no parse, no recursion). */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (!moreOpeningsThan(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** UTF-8, refusing malformed bytes; used in one synchronous pass per body, which leaves it reset. */
const decoder = new TextDecoder('utf-8', { fatal: true });

function parseJson(parts: Uint8Array[], size: number): unknown | Failure {
  if (size === 0) return fail('invalidRequest', 'request body is empty; expected a JSON object');
  let text: string;
  try {
    text = parts.map((part) => decoder.decode(part, { stream: true })).join('') + decoder.decode();
  } catch (error) {
    return fail('invalidRequest', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (nestsDeeperThan(text, maxJsonDepth))
    return fail(
      'invalidRequest',
      `request body nests deeper than ${maxJsonDepth} levels of objects and arrays`,
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail('invalidRequest', `request body is not valid JSON: ${(error as Error).message}`);
  }
}
