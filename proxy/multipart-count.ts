/**
 * Counts the bytes of each part of a `multipart/form-data` body while it streams through the proxy,
 * synchronously per chunk, holding at most one delimiter's worth of bytes (plus a part's head, capped):
 * the upload answer's `size` is compared with the file part's byte count without keeping the file.
 *
 * Not the core's `mocks/core/request/multipart.ts`: that one is an async Web-Streams reader that owns its
 * stream, where the proxy must observe Node chunks in the turn they pass, never delaying them.
 */

/** What was seen of one part. */
export interface PartCount {
  readonly name: string | undefined;
  readonly filename: string | undefined;
  bytes: number;
  /** The first bytes of a part without a filename (the scene), as text; files are only counted. */
  text?: string;
}

/** How much of a field's value is kept (a scene is a word; a longer value is cut here). */
const maxTextBytes = 256;

/** What the counter saw of the whole form. */
export interface FormCount {
  readonly parts: readonly PartCount[];
  /** The closing boundary was seen. */
  readonly complete: boolean;
  /** Why the form does not parse, when it does not. */
  readonly error: string | undefined;
}

const maxHeadBytes = 16 * 1024;
const maxParts = 64;
const crlfcrlf = Buffer.from('\r\n\r\n');
const empty = Buffer.alloc(0);

/** `name` and `filename` of a Content-Disposition header value. */
function disposition(head: string): { name: string | undefined; filename: string | undefined } {
  const line = head.split('\r\n').find((l) => /^content-disposition:/i.test(l)) ?? '';
  const param = (key: string) => {
    const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]+)`, 'i').exec(line);
    return m ? (m[1] ?? m[2]) : undefined;
  };
  return { name: param('name'), filename: param('filename') };
}

/**
 * A streaming part counter for one body with the given boundary.
 *
 * @example
 * const form = new MultipartCounter('xyz');
 * req.on('data', (chunk) => form.push(chunk));
 * req.on('end', () => console.log(form.result().parts));
 */
export class MultipartCounter {
  private readonly delimiter: Buffer;
  private state: 'preamble' | 'after-delimiter' | 'head' | 'body' | 'done' | 'failed' = 'preamble';
  private carry: Buffer;
  private readonly parts: PartCount[] = [];
  private error: string | undefined;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // The first delimiter may open the body without a CRLF before it.
    this.carry = Buffer.from('\r\n');
  }

  push(chunk: Uint8Array): void {
    if (this.state === 'done' || this.state === 'failed') return;
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const carry = this.carry;
    this.carry = empty;
    const bodyLike = this.state === 'body' || this.state === 'preamble';
    if (carry.length > 0 && bodyLike && buf.length >= this.delimiter.length - 1) {
      // The carry is under one delimiter long: look for a delimiter that starts in it by joining it with
      // the chunk's first bytes only, so that a file's chunks are never copied.
      const seam = Buffer.concat([carry, buf.subarray(0, this.delimiter.length - 1)]);
      const at = seam.indexOf(this.delimiter);
      if (at >= 0 && at < carry.length) {
        this.count(carry.subarray(0, at));
        buf = buf.subarray(at + this.delimiter.length - carry.length);
        this.state = 'after-delimiter';
      } else this.count(carry);
    } else if (carry.length > 0) buf = Buffer.concat([carry, buf]);
    for (;;) {
      if (this.state === 'preamble' || this.state === 'body') {
        const at = buf.indexOf(this.delimiter);
        if (at < 0) {
          const keep = Math.min(buf.length, this.delimiter.length - 1);
          this.count(buf.subarray(0, buf.length - keep));
          this.carry = Buffer.from(buf.subarray(buf.length - keep));
          return;
        }
        this.count(buf.subarray(0, at));
        buf = buf.subarray(at + this.delimiter.length);
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        if (buf.length < 2) {
          this.carry = Buffer.from(buf);
          return;
        }
        const two = buf.toString('latin1', 0, 2);
        if (two === '--') {
          this.state = 'done';
          return;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
        const eol = buf.indexOf('\r\n');
        if (eol < 0) {
          if (buf.length > 256) {
            this.fail('a boundary line that does not end');
            return;
          }
          this.carry = Buffer.from(buf);
          return;
        }
        if (buf.toString('latin1', 0, eol).trim() !== '') {
          this.fail('text after a boundary');
          return;
        }
        buf = buf.subarray(eol + 2);
        this.state = 'head';
      } else if (this.state === 'head') {
        const end = buf.indexOf(crlfcrlf);
        const emptyHead = buf.length >= 2 && buf[0] === 13 && buf[1] === 10;
        if (end < 0 && !emptyHead) {
          if (buf.length > maxHeadBytes) {
            this.fail(`a part head longer than ${maxHeadBytes} bytes`);
            return;
          }
          this.carry = Buffer.from(buf);
          return;
        }
        const headEnd = emptyHead ? 0 : end;
        if (this.parts.length >= maxParts) {
          this.fail(`more than ${maxParts} parts`);
          return;
        }
        const part: PartCount = { ...disposition(buf.toString('utf8', 0, headEnd)), bytes: 0 };
        if (part.filename === undefined) part.text = '';
        this.parts.push(part);
        buf = buf.subarray(headEnd + (emptyHead ? 2 : 4));
        this.state = 'body';
      } else return;
    }
  }

  result(): FormCount {
    const error =
      this.error ?? (this.state === 'done' ? undefined : 'the body ended before the closing boundary');
    return { parts: this.parts, complete: this.state === 'done', error };
  }

  private count(bytes: Buffer): void {
    const n = bytes.length;
    if (this.state !== 'body' || n <= 0) return;
    const part = this.parts.at(-1);
    if (!part) return;
    if (part.filename === undefined && part.bytes < maxTextBytes)
      part.text = (part.text ?? '') + bytes.toString('utf8', 0, Math.min(n, maxTextBytes - part.bytes));
    part.bytes += n;
  }

  private fail(why: string): void {
    this.state = 'failed';
    this.error = why;
    this.carry = empty;
  }
}
