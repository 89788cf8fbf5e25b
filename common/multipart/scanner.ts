/**
 * The one `multipart/form-data` reader (RFC 7578, RFC 2046 §5.1.1), fed a chunk at a time and answering
 * in the same turn: the mock reads an upload with it (reader.ts puts a Web stream in front) and the
 * proxy counts a form as its chunks pass, so the two cannot read one form two ways. Part bodies are
 * handed on as views of the chunks pushed, never gathered: memory stays at one chunk plus a boundary,
 * or one part's head (capped), whatever the size of the file.
 *
 * Hand-written, because no library fits all three of: web platform only, parts streamed (never held
 * whole), and a malformed head answered as an error. `@remix-run/multipart-parser` (and
 * `@mjackson/multipart-parser` before it) yields each part whole (`MultipartPart.content`, up to
 * `maxFileSize`); busboy and dicer need node:stream; `multipasta` streams parts but, in 0.2.8, throws a
 * URIError out of `write()` for a `filename*` whose percent escapes are not UTF-8 (`ISO-8859-1''caf%E9`,
 * which RFC 8187 allows), decodes `filename*` as UTF-8 whatever its charset, and keeps the backslashes of
 * quoted-pairs in Content-Disposition.
 */

import { type PartHead, partHead } from './head.js';

/** What the reader hands on, in the order of the form. */
export interface PartEvents {
  /** A part's head was read; `head` is undefined for a part that is not a named form-data field. */
  part(head: PartHead | undefined): void;
  /** Bytes of the current part's body: a view of the pushed chunk, valid until the next push. */
  data(bytes: Uint8Array): void;
  /** The current part ended with its boundary (not called when the form breaks off). */
  end(): void;
}

/** A form that does not parse: the message says what was wrong (the mock's 400, the proxy's note). */
export class MultipartError extends Error {}

/** Limits that keep a hostile form cheap. */
export interface MultipartLimits {
  /** Bytes of one part's head (default 16 KiB). */
  readonly maxHeadBytes?: number;
  /** Parts in one form (default 1,000). */
  readonly maxParts?: number;
}

/** Blanks allowed after a boundary before its line break (RFC 2046's transport padding). */
const maxPaddingBytes = 256;

const CR = 13;
const LF = 10;
const DASH = 45;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const none = new Uint8Array(0);

/**
 * A byte string to look for (Boyer-Moore-Horspool): a step looks at the last byte under the window and
 * skips by how far that byte stands from the needle's end, so file bytes are mostly stepped over, a
 * boundary's length at a time, rather than each compared.
 */
class Needle {
  private readonly skip: Uint32Array;

  constructor(readonly bytes: Uint8Array) {
    const last = bytes.length - 1;
    this.skip = new Uint32Array(256).fill(bytes.length);
    for (let i = 0; i < last; i++) this.skip[bytes[i] as number] = last - i;
  }

  /** Where the needle starts in `haystack` at or after `from`, or -1. */
  in(haystack: Uint8Array, from: number): number {
    const { bytes, skip } = this;
    const last = bytes.length - 1;
    const final = bytes[last] as number;
    for (let i = from; i + last < haystack.length; ) {
      const byte = haystack[i + last] as number;
      if (byte === final) {
        let j = last - 1;
        while (j >= 0 && haystack[i + j] === bytes[j]) j--;
        if (j < 0) return i;
      }
      i += skip[byte] as number;
    }
    return -1;
  }
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

const headEnd = new Needle(encoder.encode('\r\n\r\n'));

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

type State = 'preamble' | 'after-boundary' | 'head' | 'body' | 'done';

/**
 * Reads one form with the given boundary. `push` throws a MultipartError for a form that does not parse
 * (a broken boundary line, a head or a form over its limits); `finish` throws one for a form that ended
 * without its closing boundary. Anything after the closing boundary is ignored.
 *
 * @example
 * const form = new MultipartScanner(boundary, { part: (h) => {}, data: (b) => {}, end: () => {} });
 * for (const chunk of chunks) form.push(chunk);
 * form.finish();
 */
export class MultipartScanner {
  private readonly opening: Needle;
  private readonly delimiter: Needle;
  private readonly maxHeadBytes: number;
  private readonly maxParts: number;
  private state: State = 'preamble';
  /** Bytes kept from the last chunk: part of a boundary, a head being read, or a boundary's padding. */
  private carry: Uint8Array = none;
  /** Bytes of preamble read and thrown away before the carry. */
  private dropped = 0;
  private parts = 0;

  constructor(
    boundary: string,
    private readonly events: PartEvents,
    limits: MultipartLimits = {},
  ) {
    this.opening = new Needle(encoder.encode(`--${boundary}`));
    this.delimiter = new Needle(encoder.encode(`\r\n--${boundary}`));
    this.maxHeadBytes = limits.maxHeadBytes ?? 16 * 1024;
    this.maxParts = limits.maxParts ?? 1000;
  }

  /** The closing boundary was read. */
  get closed(): boolean {
    return this.state === 'done';
  }

  /** Reads the next chunk of the body. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0 || this.state === 'done') return;
    // The carried bytes are short (part of a boundary or padding) except while a head is read.
    this.carry = this.consume(join(this.carry, chunk));
  }

  /** The body has ended: throws unless the form closed. */
  finish(): void {
    if (this.state === 'preamble') throw new MultipartError('no boundary found in the body');
    if (this.state !== 'done') throw new MultipartError('the form ends before its closing boundary');
  }

  /** Consumes what it can of `data`; returns the bytes to carry into the next chunk. */
  private consume(data: Uint8Array): Uint8Array {
    let at = 0;
    for (;;) {
      if (this.state === 'preamble') {
        const next = this.preamble(data, at);
        if (next < 0) return this.keepPreamble(data, at);
        at = next;
      } else if (this.state === 'after-boundary') {
        const next = this.afterBoundary(data, at);
        if (next < 0) return (this.state as State) === 'done' ? none : data.subarray(at);
        at = next;
      } else if (this.state === 'head') {
        const next = this.head(data, at);
        if (next < 0) return data.subarray(at);
        at = next;
      } else if (this.state === 'body') {
        const found = this.delimiter.in(data, at);
        if (found < 0) {
          const upto = data.length - partialTail(data.subarray(at), this.delimiter.bytes);
          if (upto > at) this.events.data(data.subarray(at, upto));
          return data.subarray(upto);
        }
        if (found > at) this.events.data(data.subarray(at, found));
        this.events.end();
        at = found + this.delimiter.bytes.length;
        this.state = 'after-boundary';
      } else {
        return none; // the epilogue: ignored
      }
    }
  }

  /** The first boundary opens the body or follows a preamble line: where reading goes on, or -1. */
  private preamble(data: Uint8Array, from: number): number {
    for (let at = from; ; ) {
      const found = this.opening.in(data, at);
      if (found < 0) return -1;
      const atStart = found === 0 && this.dropped === 0;
      if (atStart || (found >= 2 && data[found - 1] === LF && data[found - 2] === CR)) {
        this.state = 'after-boundary';
        return found + this.opening.bytes.length;
      }
      at = found + 1;
    }
  }

  /** Keeps what may be the start of the first boundary, with the line break before it. */
  private keepPreamble(data: Uint8Array, at: number): Uint8Array {
    const keepFrom = Math.max(at, data.length - this.opening.bytes.length - 1);
    this.dropped += keepFrom;
    return data.subarray(keepFrom);
  }

  /** "--" closes the form; else blanks, CRLF and a head follow. Where reading goes on, or -1 for more. */
  private afterBoundary(data: Uint8Array, at: number): number {
    if (data.length - at < 2) return -1;
    if (data[at] === DASH && data[at + 1] === DASH) {
      this.state = 'done';
      return -1;
    }
    let i = at;
    while (i < data.length && (data[i] === 32 || data[i] === 9)) i++;
    if (i - at > maxPaddingBytes) throw new MultipartError('a boundary line that does not end');
    if (data.length - i < 2) return -1;
    if (data[i] !== CR || data[i + 1] !== LF)
      throw new MultipartError('a boundary is not followed by a line break');
    this.state = 'head';
    return i + 2;
  }

  /** Reads a part's head once it is whole. Where its body starts, or -1 for more. */
  private head(data: Uint8Array, at: number): number {
    // A part with no header lines at all starts with the blank line itself.
    const bare = data[at] === CR && data[at + 1] === LF;
    const end = bare ? at : headEnd.in(data, at);
    if ((end < 0 ? data.length : end) - at > this.maxHeadBytes)
      throw new MultipartError(`a part head is longer than ${this.maxHeadBytes} bytes`);
    if (end < 0) return -1;
    this.parts += 1;
    if (this.parts > this.maxParts) throw new MultipartError(`the form has more than ${this.maxParts} parts`);
    this.events.part(partHead(decoder.decode(data.subarray(at, end))));
    this.state = 'body';
    return bare ? at + 2 : end + headEnd.bytes.length;
  }
}
