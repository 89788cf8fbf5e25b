import type { ErrorName } from '../../openapi/contract.js';
import { errors } from '../../openapi/contract.js';
import { BytesResponse } from './bytes-response.js';

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
 * Builds a Failure from the catalogue; the message defaults to the catalogue's example message.
 *
 * @example
 * return fail('voiceIdTaken', `voice_id "${id}" already exists`);
 */
export function fail(error: ErrorName, message: string = errors[error].message): Failure {
  return { kind: 'failure', error, message };
}

export const isFailure = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && (value as Failure).kind === 'failure';

const encoder = new TextEncoder();

/**
 * A JSON response with an explicit Content-Length, so that every adapter sends it unchunked.
 *
 * @example
 * jsonResponse(200, { error_code: 0, error_message: '', succeed: true, data: null });
 */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  const bytes = encoder.encode(JSON.stringify(body));
  return new BytesResponse(bytes, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(bytes.byteLength), ...headers },
  });
}

/**
 * The success envelope (HTTP 200, error_code 0, succeed true).
 *
 * @example
 * return ok({ voice_id: 'narrator' });
 */
export function ok(data: unknown): Response {
  return jsonResponse(200, { error_code: 0, error_message: '', succeed: true, data } satisfies Envelope);
}

/**
 * The success envelope around `dataJson`, data already serialized (byte for byte what `ok()` gives
 * for the parsed value): for answers built from cached pieces of JSON.
 *
 * @example
 * return okJson('{"voice_id":"narrator"}');
 */
export function okJson(dataJson: string): Response {
  return okBytes(okJsonBytes(dataJson));
}

/** The bytes of the success envelope around `dataJson`, for an answer kept and sent again. */
export const okJsonBytes = (dataJson: string): Uint8Array<ArrayBuffer> =>
  encoder.encode(`{"error_code":0,"error_message":"","succeed":true,"data":${dataJson}}`);

/** A 200 JSON answer of bytes made earlier by `okJsonBytes` (not copied: keep them unchanged). */
export function okBytes(bytes: Uint8Array<ArrayBuffer>): Response {
  return new BytesResponse(bytes, {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(bytes.byteLength) },
  });
}

/**
 * Renders a failure envelope with an explicit code and status (used for catalogue entries and for
 * `Prefer: code=NNN` examples alike). data is always null (§7).
 *
 * @example
 * failureResponse(503, 20002, 'storage temporarily unavailable');
 */
export function failureResponse(status: number, code: number, message: string): Response {
  return jsonResponse(status, { error_code: code, error_message: message, succeed: false, data: null });
}

/**
 * Renders a Failure value with the status and code of its catalogue entry.
 *
 * @example
 * render(fail('fileTooLarge')); // 413, error_code 20010
 */
export function render(failure: Failure): Response {
  const entry = errors[failure.error];
  return failureResponse(entry.status, entry.code, failure.message);
}
