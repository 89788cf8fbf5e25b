import { type Failure, fail } from '../answer/envelope.js';
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

/** JSON bodies of this service are small (generate_text is at most ~10,000 characters); a cap keeps a huge one cheap. */
export const maxJsonBodyBytes = 1_048_576;

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
  try {
    while (!(await reader.read()).done) {
      // discard
    }
  } catch {
    // the client went away; nothing left to drain
  } finally {
    reader.releaseLock();
  }
}

/** A body whose cancel() discards the rest of it and resolves once all of it has arrived. */
export interface DiscardingBody extends ReadableStream<Uint8Array> {
  readonly discardsOnCancel: true;
}

/** The media type of a Content-Type header value, lowercased, without parameters. */
export const mediaType = (contentType: string | null): string =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Reads a JSON request body: refuses another Content-Type, an empty or oversized body, or malformed
 * JSON, each as an invalidRequest failure saying which (general-errors decision).
 *
 * @example
 * const body = await readJsonBody(request); if (isFailure(body)) return render(body);
 */
export async function readJsonBody(request: CoreRequest, cap: number = maxJsonBodyBytes): Promise<unknown> {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== 'application/json') {
    await drain(request.body);
    return fail('invalidRequest', `Content-Type must be application/json, got "${type || 'none'}"`);
  }
  if (!request.body) return fail('invalidRequest', 'request body is empty; expected a JSON object');
  const reader = request.body.getReader();
  let read: Awaited<ReturnType<typeof readAtMost>>;
  try {
    read = await readAtMost(reader, cap);
  } catch (error) {
    reader.releaseLock();
    if (error instanceof BodyStalled) return fail('bodyStalled', error.message);
    return fail('invalidRequest', `request body could not be read: ${(error as Error).message}`);
  }
  if (!read) {
    reader.releaseLock();
    await drain(request.body);
    return fail('invalidRequest', `request body is larger than ${cap} bytes`);
  }
  return parseJson(read.parts, read.size);
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

function parseJson(parts: Uint8Array[], size: number): unknown | Failure {
  if (size === 0) return fail('invalidRequest', 'request body is empty; expected a JSON object');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    const text = parts.map((part) => decoder.decode(part, { stream: true })).join('') + decoder.decode();
    return JSON.parse(text);
  } catch (error) {
    return fail('invalidRequest', `request body is not valid JSON: ${(error as Error).message}`);
  }
}
