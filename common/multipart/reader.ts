/**
 * A streaming `multipart/form-data` reader (RFC 7578) over a Web `ReadableStream`: no Node built-in,
 * so it runs wherever the core runs (Node server, msw/node, msw/browser). Part bodies are handed on
 * as views of the chunks that arrive, never gathered: memory stays at one chunk plus the boundary,
 * whatever the size of the file.
 *
 * Hand-written on purpose: `@remix-run/multipart-parser` (the well-kept Web-Streams parser) yields each
 * part whole (`MultipartPart.content`), so a 50 MiB upload would cost 50 MiB before the first byte
 * reaches storage, against one chunk here; busboy needs node:stream.
 */

/** What a part's head says that a form reader needs. */
export interface PartHead {
  /** The form field name (`name=` of Content-Disposition). */
  readonly name: string;
  /** The file name for a file part (`filename*=` wins over `filename=`), without any path; else undefined. */
  readonly filename: string | undefined;
}

/** Where one part's body goes. A promise from `data` holds the reading back until it settles. */
export interface PartSink {
  data(chunk: Uint8Array): void | Promise<void>;
  /** The part ended with its boundary (not called when the form breaks off). */
  end?(): void;
}

/** A form that does not parse: the message says what was wrong, for the 400 envelope. */
export class MultipartError extends Error {}

/** Limits that keep a hostile form cheap. */
export interface MultipartLimits {
  /** Bytes of one part's head (default 16 KiB). */
  readonly maxHeadBytes?: number;
  /** Parts in one form (default 1,000). */
  readonly maxParts?: number;
}

const CR = 13;
const LF = 10;
const DASH = 45;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The boundary of a `multipart/form-data` Content-Type, or undefined when it has none or a malformed one
 * (RFC 2046: 1 to 70 characters).
 *
 * @example
 * boundaryOf('multipart/form-data; boundary="abc"'); // 'abc'
 */
export function boundaryOf(contentType: string): string | undefined {
  const value = parameters(contentType).get('boundary');
  return value !== undefined && value.length >= 1 && value.length <= 70 ? value : undefined;
}

/**
 * The `; name=value` parameters of a header value (lowercased names, unquoted values). `name*=`
 * (RFC 8187: `UTF-8''percent-encoded`) is decoded and kept under `name*`.
 */
export function parameters(header: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of header.matchAll(pattern)) {
    const name = (match[1] as string).toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    const value = name.endsWith('*') ? extendedValue(raw) : raw;
    if (value !== undefined && !found.has(name)) found.set(name, value);
  }
  return found;
}

/** An RFC 8187 value (`charset'language'%xx…`); UTF-8 and ISO-8859-1 are the charsets a client sends. */
function extendedValue(raw: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(raw);
  if (!match) return undefined;
  const charset = (match[1] as string).toLowerCase();
  const encoded = match[2] as string;
  try {
    if (charset === 'utf-8' || charset === 'utf8') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1' || charset === 'latin1')
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
  } catch {
    // a broken escape: no value
  }
  return undefined;
}

/** A file name as a client may send it with a path (`C:\dir\a.wav`): the last segment only. */
const baseName = (name: string): string =>
  name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);

/** The head of one part, or undefined for a part that is not a named form-data field (skipped). */
function partHead(head: string): PartHead | undefined {
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^form-data\s*(;|$)/i.test(value)) return undefined;
    const params = parameters(value.slice(value.indexOf('form-data') + 'form-data'.length));
    const name = params.get('name');
    if (name === undefined) return undefined;
    const filename = params.get('filename*') ?? params.get('filename');
    return { name, filename: filename === undefined ? undefined : baseName(filename) };
  }
  return undefined;
}

/** Where `needle` starts in `haystack` from `from`, or -1. A scan for its first byte, then a compare. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** How many bytes at the end of `haystack` could be the start of `needle` (kept for the next chunk). */
function partialTail(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0] as number;
  // Only a position holding the needle's first byte (CR) can start it: one scan, rarely a compare.
  for (let start = Math.max(0, haystack.length - needle.length + 1); start < haystack.length; start++) {
    if (haystack[start] !== first) continue;
    let j = 1;
    while (start + j < haystack.length && haystack[start + j] === needle[j]) j++;
    if (start + j === haystack.length) return haystack.length - start;
  }
  return 0;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

type State = 'preamble' | 'after-boundary' | 'head' | 'body' | 'done';

/**
 * Reads a whole `multipart/form-data` body, calling `onPart` for each named part and feeding its body
 * to the sink returned. Throws a MultipartError for a form that does not parse (no boundary, a broken
 * head, the end before the closing boundary); anything after the closing boundary is read and ignored.
 *
 * @example
 * await readMultipart(request.body, boundaryOf(contentType)!, (head) => ({ data: (chunk) => store(chunk) }));
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (head: PartHead) => PartSink,
  limits: MultipartLimits = {},
): Promise<void> {
  const maxHeadBytes = limits.maxHeadBytes ?? 16 * 1024;
  const maxParts = limits.maxParts ?? 1000;
  const opening = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const headEnd = encoder.encode('\r\n\r\n');
  let state: State = 'preamble';
  let carry: Uint8Array = new Uint8Array(0);
  let sink: PartSink | undefined;
  let parts = 0;
  /** Bytes of preamble read and thrown away before the current data. */
  let dropped = 0;

  /** Consumes what it can of `data`; returns the bytes to carry into the next chunk. */
  async function consume(data: Uint8Array): Promise<Uint8Array> {
    let at = 0;
    for (;;) {
      if (state === 'preamble') {
        // The first boundary may open the body or follow a preamble line.
        const found = indexOf(data, opening, at);
        if (found < 0) {
          // Kept: what may be the start of the boundary, with the line break before it.
          const keepFrom = Math.max(at, data.length - opening.length - 1);
          dropped += keepFrom;
          return data.subarray(keepFrom);
        }
        const atStart = found === 0 && dropped === 0;
        if (!atStart && (found < 2 || data[found - 1] !== LF || data[found - 2] !== CR)) {
          at = found + 1;
          continue;
        }
        at = found + opening.length;
        state = 'after-boundary';
      } else if (state === 'after-boundary') {
        // "--" closes the form; otherwise optional blanks, then CRLF and the next part's head.
        if (data.length - at < 2) return data.subarray(at);
        if (data[at] === DASH && data[at + 1] === DASH) {
          state = 'done';
          return new Uint8Array(0);
        }
        let i = at;
        while (i < data.length && (data[i] === 32 || data[i] === 9)) i++;
        if (data.length - i < 2) return data.subarray(at);
        if (data[i] !== CR || data[i + 1] !== LF)
          throw new MultipartError('a boundary is not followed by a line break');
        at = i + 2;
        state = 'head';
      } else if (state === 'head') {
        const end = indexOf(data, headEnd, at);
        // A part with no header lines at all starts with the blank line itself.
        const bare = data[at] === CR && data[at + 1] === LF;
        if (end < 0 && !bare) {
          if (data.length - at > maxHeadBytes)
            throw new MultipartError(`a part head is longer than ${maxHeadBytes} bytes`);
          return data.subarray(at);
        }
        const stop = bare ? at : end;
        if (stop - at > maxHeadBytes)
          throw new MultipartError(`a part head is longer than ${maxHeadBytes} bytes`);
        parts += 1;
        if (parts > maxParts) throw new MultipartError(`the form has more than ${maxParts} parts`);
        const head = partHead(decoder.decode(data.subarray(at, stop)));
        sink = head ? onPart(head) : undefined;
        at = bare ? at + 2 : end + headEnd.length;
        state = 'body';
      } else if (state === 'body') {
        const found = indexOf(data, delimiter, at);
        if (found < 0) {
          const keep = partialTail(data.subarray(at), delimiter);
          const upto = data.length - keep;
          if (upto > at && sink) await sink.data(data.subarray(at, upto));
          return data.subarray(upto);
        }
        if (found > at && sink) await sink.data(data.subarray(at, found));
        sink?.end?.();
        sink = undefined;
        at = found + delimiter.length;
        state = 'after-boundary';
      } else {
        return new Uint8Array(0); // the epilogue: read, ignored
      }
    }
  }

  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.length === 0 || (state as State) === 'done') continue;
      // The carried bytes are short (part of a boundary or a head) except while a head is read.
      carry = await consume(join(carry, value));
    }
    ended = true;
  } finally {
    // A form that broke off is unlocked for the caller to drain. One read to its end stays locked:
    // releasing a finished reader rejects its `closed` promise, which left Node slower at HTTP after.
    if (!ended) reader.releaseLock();
  }
  // (consume() moves the state; TypeScript cannot see that through the closure.)
  const last = state as State;
  if (last === 'preamble') throw new MultipartError('no boundary found in the body');
  if (last !== 'done') throw new MultipartError('the form ends before its closing boundary');
}
