import { validators } from '../../../openapi/generated/validators.js';

const validate = validators['mock-snapshot'];

/** A JSON Pointer as a reader writes the field: `/voices/voices/0/createdAt` → `voices.voices[0].createdAt`. */
const fieldOf = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');

/**
 * What is wrong with a snapshot, naming the field (snapshot.schema.json, compiled by `npm run
 * generate`); undefined for a snapshot of the shape this mock writes.
 *
 * @example
 * snapshotProblem({ version: 1, …, voices: { voices: [{ createdAt: 'yesterday', … }] } });
 * // 'voices.voices[0].createdAt: must be integer'
 */
export function snapshotProblem(value: unknown): string | undefined {
  if (!validate) throw new Error('the mock-snapshot validator is missing: run npm run generate');
  if (validate(value)) return undefined;
  const error = validate.errors?.[0];
  if (!error) return 'not a voice-kit mock snapshot';
  const field = fieldOf(error.instancePath) || '(the snapshot)';
  const missing =
    error.keyword === 'required'
      ? ` (${(error.params as { missingProperty: string }).missingProperty} is missing)`
      : '';
  const allowed = error.keyword === 'const' ? ` (expected ${JSON.stringify(error.params.allowedValue)})` : '';
  return `${field}: ${error.message}${missing}${allowed}`;
}
