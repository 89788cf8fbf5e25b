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
 * Renders a Failure value with the status and code of its catalogue entry.
 *
 * @example
 * render(fail('fileTooLarge')); // 413, error_code 20010
 */
export function render(failure: Failure, headers?: Record<string, string>): BytesAnswer {
  const entry = errors[failure.error];
  return failureAnswer(entry.status, entry.code, failure.message, headers);
}
