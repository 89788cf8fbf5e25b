import { limits, synthesis } from '../../../openapi/contract.js';
import type { SchemaProblem } from '../../../openapi/validate.js';

/** Where a finding was made: the query string (values are the strings received) or the JSON body. */
export type FindingSource = 'query' | 'body';

const refAudioRule = 'ref_audio must be the object_key of an upload or an http(s) URL';
const pageSizeRule = `page_size must be an integer from ${limits.pageSizeMin.value} to ${limits.pageSizeMax.value}`;
const speedRule = 'speed must be 0 (provider default) or a positive number';

/** The value a JSON pointer names in the received query or body; undefined when it is absent. */
function valueAt(received: unknown, pointer: string): unknown {
  let value = received;
  for (const part of pointerParts(pointer)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The property names of a JSON pointer, unescaped (RFC 6901). */
const pointerParts = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));

/** How a received value reads in a message: query values as the string sent, JSON values as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}

const typeWords: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
};

/** The sentence for one finding of a field the spec names; undefined for the generic one. */
function fieldSentence(
  source: FindingSource,
  field: string,
  keyword: string,
  got: string,
): string | undefined {
  if (source === 'query') {
    if (field === 'page_size') return `${pageSizeRule}, got ${got}`;
    if (field === 'voice_id' && keyword === 'minLength')
      return 'voice_id (the list cursor) must not be empty: omit it for the first page';
    return undefined;
  }
  switch (`${field} ${keyword}`) {
    case `${synthesis.textField} required`:
      return `${synthesis.textField} is required (the field \`${synthesis.textAliasField}\` shown in the voice-creation flow is not accepted as an alias)`;
    case `${synthesis.textField} minLength`:
      return `${synthesis.textField} must not be empty`;
    case 'speed minimum':
    case 'speed type':
      return `${speedRule}, got ${got}`;
    case 'ref_audio required':
      return `ref_audio is required: the object_key of an upload or an http(s) URL`;
    case 'ref_audio minLength':
    case 'ref_audio type':
      return `${refAudioRule}, got ${got}`;
    case 'voice_id required':
      return 'voice_id is required: the ID of the new voice';
    default:
      return undefined;
  }
}

/**
 * One schema finding as a sentence for people: the field, the rule and the value received, instead
 * of ajv's wording ("body/speed must be >= 0" → "speed must be 0 (provider default) or a positive
 * number, got -1").
 *
 * @example
 * describeFinding('query', { pointer: '/page_size', keyword: 'minimum', message: 'must be >= 1' }, { page_size: '0' });
 * // 'page_size must be an integer from 1 to 20, got "0"'
 */
export function describeFinding(source: FindingSource, finding: SchemaProblem, received: unknown): string {
  const value = valueAt(received, finding.pointer);
  const got = shown(value);
  if (finding.pointer === '') {
    return finding.keyword === 'type'
      ? `the request body must be a JSON object, got ${got}`
      : `the request body ${finding.message}`;
  }
  const field = pointerParts(finding.pointer).join('.');
  const specific = fieldSentence(source, field, finding.keyword, got);
  if (specific) return specific;
  if (finding.keyword === 'required') return `${field} is required`;
  const typed = finding.keyword === 'type' && finding.message.match(/^must be (\w+)$/)?.[1];
  const rule = typed ? `must be ${typeWords[typed] ?? typed}` : finding.message;
  return `${field} ${rule}, got ${got}`;
}

/**
 * Every finding of one validation as one message.
 *
 * @example
 * describeFindings('body', findings, body); // 'generate_text must not be empty'
 */
export function describeFindings(
  source: FindingSource,
  findings: readonly SchemaProblem[],
  received: unknown,
) {
  return findings.map((finding) => describeFinding(source, finding, received)).join('; ');
}
