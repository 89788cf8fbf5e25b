/**
 * The envelope rules of §2.1 and §7: on success HTTP 200, succeed true, error_code 0, error_message
 * empty, data an object; on failure a non-2xx status, succeed false, a nonzero error_code, a description
 * and data null.
 */
import { isObject } from './exchange.js';

export { isObject };

/** The envelope of §2.1, once its shape is checked. */
export interface Envelope {
  readonly error_code: number;
  readonly error_message: string;
  readonly succeed: boolean;
  readonly data: unknown;
}

/** The body as an envelope when it has the four fields with the right types; otherwise undefined. */
export function asEnvelope(json: unknown): Envelope | undefined {
  if (!isObject(json)) return undefined;
  const { error_code, error_message, succeed, data } = json;
  if (typeof error_code !== 'number' || typeof error_message !== 'string' || typeof succeed !== 'boolean') {
    return undefined;
  }
  if (!('data' in json) || (data !== null && !isObject(data))) return undefined;
  return { error_code, error_message, succeed, data };
}

function fieldProblems(json: Record<string, unknown>): string[] {
  const p: string[] = [];
  const { error_code, error_message, succeed, data } = json;
  if (typeof error_code !== 'number' || !Number.isInteger(error_code)) {
    p.push(`error_code is ${JSON.stringify(error_code)}, not an integer number`);
  }
  if (typeof error_message !== 'string')
    p.push(`error_message is ${JSON.stringify(error_message)}, not a string`);
  if (typeof succeed !== 'boolean') p.push(`succeed is ${JSON.stringify(succeed)}, not a boolean`);
  if (!('data' in json)) p.push('data is missing');
  else if (data !== null && !isObject(data)) p.push(`data is ${JSON.stringify(data)}, not an object or null`);
  return p;
}

/**
 * Every way a JSON body breaks the envelope rules for its status. `dataMayBeNull` is for success
 * responses whose data the spec does not show (delete, save).
 *
 * @example
 * envelopeProblems({ succeed: true, error_code: 0, error_message: '', data: null }, 200, { dataMayBeNull: false })
 * // ['data is null on success; the result object was expected']
 */
export function envelopeProblems(
  json: unknown,
  status: number,
  opts: { readonly dataMayBeNull: boolean },
): string[] {
  if (json === undefined) return ['the body is not JSON (the envelope of §2.1 was expected)'];
  if (!isObject(json))
    return [`the body is ${Array.isArray(json) ? 'an array' : typeof json}, not an object`];
  const p = fieldProblems(json);
  const { error_code, error_message, succeed, data } = json;
  if (status >= 200 && status < 300) {
    if (status !== 200) p.push(`success status is ${status}; the spec says HTTP 200`);
    if (succeed !== true) p.push(`succeed is ${JSON.stringify(succeed)} on HTTP ${status}`);
    if (error_code !== 0) p.push(`error_code is ${JSON.stringify(error_code)} on success; 0 was expected`);
    if (error_message !== '')
      p.push(`error_message is ${JSON.stringify(error_message)} on success; empty was expected`);
    if (data === null && !opts.dataMayBeNull)
      p.push('data is null on success; the result object was expected');
    return p;
  }
  if (succeed !== false)
    p.push(`succeed is ${JSON.stringify(succeed)} on HTTP ${status}; false was expected`);
  if (error_code === 0) p.push(`error_code is 0 on HTTP ${status}; a business error code was expected`);
  if (typeof error_message === 'string' && error_message.trim() === '') {
    p.push(`error_message is empty on HTTP ${status}; a description was expected`);
  }
  if (data !== null)
    p.push(`data is ${JSON.stringify(data)?.slice(0, 80)} on HTTP ${status}; null was expected`);
  return p;
}
