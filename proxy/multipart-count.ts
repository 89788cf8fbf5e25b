/**
 * Counts the bytes of each part of a `multipart/form-data` body while it streams through the proxy,
 * synchronously per chunk, never delaying one: the upload answer's `size` is compared with the file
 * part's byte count without keeping the file. The form is read by the mock's own reader
 * (common/multipart/), so the proxy and the mock agree on every part, file name and error.
 */

import { keptName, type PartHead } from '../common/multipart/head.js';
import { MultipartError, MultipartScanner } from '../common/multipart/scanner.js';

/** What was seen of one part. */
export interface PartCount {
  /** The field name; undefined for a part that is not a named form-data field. */
  readonly name: string | undefined;
  readonly filename: string | undefined;
  bytes: number;
  /** The first bytes of a part without a filename (the scene), as text; files are only counted. */
  text?: string;
}

/** What the counter saw of the whole form. */
export interface FormCount {
  readonly parts: readonly PartCount[];
  /** The closing boundary was seen. */
  readonly complete: boolean;
  /** Why the form does not parse, when it does not. */
  readonly error: string | undefined;
}

/** How much of a field's value is kept (a scene is a word; a longer value is cut here). */
const maxTextBytes = 256;
/** How much of a name or file name is kept: the judge compares names with "file" and reads extensions. */
const maxNameChars = 256;

const kept = (head: PartHead | undefined): PartCount => ({
  name: head && keptName(head.name, maxNameChars),
  // The end of a long file name: the judge reads its extension.
  filename: head?.filename === undefined ? undefined : keptName(head.filename, maxNameChars, true),
  bytes: 0,
});

/**
 * A streaming part counter for one body with the given boundary. A form that does not parse is
 * reported by `result()`, never thrown.
 *
 * @example
 * const form = new MultipartCounter('xyz');
 * req.on('data', (chunk) => form.push(chunk));
 * req.on('end', () => console.log(form.result().parts));
 */
export class MultipartCounter {
  private readonly scanner: MultipartScanner;
  private readonly parts: PartCount[] = [];
  /** The first bytes of the current field (a part without a filename), decoded when the form is read. */
  private text: Uint8Array[] | undefined;
  private textBytes = 0;
  private error: string | undefined;

  constructor(boundary: string) {
    this.scanner = new MultipartScanner(boundary, {
      part: (head) => {
        this.settleText();
        const part = kept(head);
        this.parts.push(part);
        this.text = part.filename === undefined ? [] : undefined;
        this.textBytes = 0;
      },
      data: (bytes) => this.count(bytes),
      end: () => this.settleText(),
    });
  }

  push(chunk: Uint8Array): void {
    if (this.error !== undefined) return;
    try {
      this.scanner.push(chunk);
    } catch (error) {
      this.fail(error);
    }
  }

  result(): FormCount {
    if (this.error === undefined && !this.scanner.closed) {
      try {
        this.scanner.finish();
      } catch (error) {
        this.fail(error);
      }
    }
    this.settleText();
    return { parts: this.parts, complete: this.scanner.closed, error: this.error };
  }

  private count(bytes: Uint8Array): void {
    const part = this.parts.at(-1);
    if (!part) return;
    part.bytes += bytes.length;
    if (this.text && this.textBytes < maxTextBytes) {
      const piece = bytes.slice(0, maxTextBytes - this.textBytes);
      this.text.push(piece);
      this.textBytes += piece.length;
    }
  }

  /** Writes the kept bytes of the current field as its text. */
  private settleText(): void {
    const part = this.parts.at(-1);
    if (!part || !this.text) return;
    const bytes = new Uint8Array(this.textBytes);
    let at = 0;
    for (const piece of this.text) {
      bytes.set(piece, at);
      at += piece.length;
    }
    // A cut in the middle of a character leaves a replacement character, as a cut value should.
    part.text = new TextDecoder().decode(bytes);
    this.text = undefined;
  }

  private fail(error: unknown): void {
    // Whatever the reader throws is the form's problem to report: the proxy passes the bytes on regardless.
    this.error = error instanceof MultipartError ? error.message : `the form reader failed: ${String(error)}`;
  }
}
