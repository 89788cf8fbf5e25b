/**
 * The §2.1 envelope: what every JSON answer of the mock says, success or failure. Every refusal the
 * mock sends anywhere (core, Node server, MSW) is rendered here from the one error catalogue
 * (openapi/contract.ts). How the bytes travel is answer.ts.
 */
import type { ErrorName } from '../../../openapi/contract.js';
import { errors } from '../../../openapi/contract.js';
import { type BytesAnswer, jsonAnswer, jsonBytesAnswer } from './answer.js';

/** The envelope of §2.1, as every JSON answer of the mock carries it. */
export interface Envelope<T = unknown> {
  error_code: number;
  error_message: string;
  succeed: boolean;
  data: T | null;
}

/**
 * An expected failure, as a value: which catalogue entry, and a message saying what was wrong.
 * Operations return it; the pipeline renders it. Throwing is for bugs only.
 */
export interface Failure {
  readonly kind: 'failure';
  readonly error: ErrorName;
  readonly message: string;
}

/**
 * Characters an echoed value must not carry as they are: controls (C0, DEL, C1), bidi marks and
 * overrides (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: `x\u202Eevil` reverses the rest of
 * the line in the dashboard), line and paragraph separators, and lone surrogates.
 */
const unsafeText =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to escape
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Everything but printable ASCII: what a header value may not carry (not every client reads Latin-1). */
const nonAscii = /[^\x20-\x7e]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** How much of a value a client sent an error message shows back (a path, a voice_id, a file name). */
export const echoedMaxChars = 256;

/**
 * `value` as an error message may show it: at most `echoedMaxChars` characters, then `…` and its
 * length. A 404 that echoed a whole 16 KB path made every keyless answer 16 KB, and 8,192 of them
 * grew the mock by ~80–110 MB of garbage before V8 collected it (redteam D2); 300 bytes say as much.
 *
 * @example
 * excerpt('/v1/' + 'x'.repeat(20_000)); // '/v1/xxx…xx… (20,004 characters)'
 */
export function excerpt(value: string): string {
  if (value.length <= echoedMaxChars) return value;
  return `${value.slice(0, echoedMaxChars)}… (${value.length.toLocaleString('en-US')} characters)`;
}

/**
 * A value a client sent, quoted to be shown back in an error message or an X-Mock-Warning header:
 * its unsafe characters written as `\u202e` text, so an echoed voice_id or file name cannot reorder
 * or hide the message around it. `ascii` (headers) escapes every character outside printable ASCII.
 * A long value shows its first `echoedMaxChars` characters and its length (`excerpt`).
 *
 * @example
 * fail('voiceIdTaken', `voice_id ${quoted(id)} already exists`); // voice_id "x\u202eevil" already exists
 */
export function quoted(value: string, ascii = false): string {
  const shown = value.length > echoedMaxChars ? value.slice(0, echoedMaxChars) : value;
  const text = `"${shown.replace(/["\\]/g, '\\$&').replace(ascii ? nonAscii : unsafeText, escaped)}"`;
  return shown === value
    ? text
    : `${text.slice(0, -1)}…" (${value.length.toLocaleString('en-US')} characters)`;
}

/**
 * Builds a Failure from the catalogue; the message defaults to the catalogue's example message.
 *
 * @example
 * return fail('voiceIdTaken', `voice_id ${quoted(id)} already exists`);
 */
export function fail(error: ErrorName, message: string = errors[error].message): Failure {
  return { kind: 'failure', error, message };
}

export const isFailure = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && (value as Failure).kind === 'failure';

/**
 * The success envelope (HTTP 200, error_code 0, succeed true).
 *
 * @example
 * return ok({ voice_id: 'narrator' });
 */
export function ok(data: unknown, headers?: Record<string, string>): BytesAnswer {
  return jsonAnswer(
    200,
    { error_code: 0, error_message: '', succeed: true, data } satisfies Envelope,
    headers,
  );
}

const encoder = new TextEncoder();

/**
 * The bytes of the success envelope around `dataJson`, data already serialized (byte for byte what
 * `ok()` gives for the parsed value): for answers built from cached pieces of JSON, and kept.
 *
 * @example
 * return okBytes(okJsonBytes('{"voice_id":"narrator"}'));
 */
export const okJsonBytes = (dataJson: string): Uint8Array<ArrayBuffer> =>
  encoder.encode(`{"error_code":0,"error_message":"","succeed":true,"data":${dataJson}}`);

/** A 200 JSON answer of bytes made by `okJsonBytes` (shared, not copied). */
export const okBytes = (bytes: Uint8Array<ArrayBuffer>): BytesAnswer => jsonBytesAnswer(bytes);

/**
 * Renders a failure envelope with an explicit code and status (used for catalogue entries and for
 * `Prefer: code=NNN` examples alike). data is always null (§7).
 *
 * @example
 * failureAnswer(503, 20002, 'storage temporarily unavailable');
 */
export function failureAnswer(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): BytesAnswer {
  const body = { error_code: code, error_message: message, succeed: false, data: null } satisfies Envelope;
  return jsonAnswer(status, body, headers);
}

/**
 * Renders a Failure value with the status and code of its catalogue entry, or those a calibration
 * profile gives it (`refusals`, mocks/core/calibration.ts): the one place a profile changes a refusal.
 *
 * @example
 * render(fail('fileTooLarge')); // 413, error_code 20010
 * render(fail('refAudioTooShort'), undefined, { refAudioTooShort: { status: 422, code: 20016 } }); // 422
 */
export function render(
  failure: Failure,
  headers?: Record<string, string>,
  refusals?: Partial<Readonly<Record<ErrorName, { readonly status: number; readonly code: number }>>>,
): BytesAnswer {
  const entry = refusals?.[failure.error] ?? errors[failure.error];
  return failureAnswer(entry.status, entry.code, failure.message, headers);
}
