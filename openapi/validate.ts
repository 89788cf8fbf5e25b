/**
 * Validators and routing derived from the OpenAPI document at run time, with no file or Node access:
 * the document comes from `generated/spec.ts`, and each schema's validator from `generated/validators.ts`
 * (ajv standalone code made by `npm run generate`).
 * Expected failures are values (`SchemaProblem[]`); nothing here throws for bad input.
 *
 * @example
 * const route = matchRoute('GET', '/v1/voice/list');
 * if (route.kind === 'match') validateQuery(route.operationId, { page_size: '5' }); // []
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { OperationId } from './contract.js';
import { at, child, isObject, type Located, type Operation, operations, resolve } from './document-index.js';
import type { Json } from './generated/spec.js';
import { type PrecompiledValidator, validators } from './generated/validators.js';

export { matchRoute, type RouteMatch } from './route-match.js';

/** One problem found in a validated value. `pointer` is a JSON pointer into that value. */
export interface SchemaProblem {
  pointer: string;
  message: string;
  keyword: string;
}

/**
 * The validator `npm run generate` precompiled for a schema (ajv standalone code: no compiler is
 * imported or run here, which kept ~300 ms off the mock's startup). A missing one means the
 * generated files are stale, a bug to be loud about.
 */
function validatorFor(key: string, coerce = false): PrecompiledValidator {
  const validate = validators[`${coerce ? 'coerce' : 'plain'} ${key}`];
  if (!validate) throw new Error(`no precompiled validator for ${key}: run \`npm run generate\``);
  return validate;
}

function toFindings(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if') // its `then` errors already say what is missing
    .map((error) => {
      const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }) : {};
      const pointer = missing.missingProperty
        ? child(error.instancePath, missing.missingProperty)
        : error.instancePath;
      return { pointer, message: error.message ?? 'is invalid', keyword: error.keyword };
    });
}

function unknownOperation(operationId: string): SchemaProblem[] {
  return [{ pointer: '', keyword: 'operation', message: `unknown operationId "${operationId}"` }];
}

/**
 * Validates a parsed JSON request body (saveVoice, synthesizeSpeech, streamSpeech).
 *
 * @example validateJsonBody('synthesizeSpeech', { text: 'hi' }) // [{ pointer: '/generate_text', keyword: 'required', … }]
 */
export function validateJsonBody(operationId: OperationId, body: unknown): SchemaProblem[] {
  const op = operations().get(operationId);
  if (!op) return unknownOperation(operationId);
  const media = at(op, 'requestBody');
  const json = media && at(media, 'content');
  const schema = json && at(json, 'application/json');
  if (!schema?.node.schema) {
    return [{ pointer: '', keyword: 'requestBody', message: `${operationId} takes no JSON request body` }];
  }
  const pointer = child(schema.pointer, 'schema');
  const validate = validatorFor(pointer);
  return validate(body) ? [] : toFindings(validate.errors);
}

// Per operation, since every request with a query asks again (the document never changes).
const queryParametersOf = new Map<string, { name: string; required: boolean; pointer: string }[]>();

function queryParameters(op: Operation): { name: string; required: boolean; pointer: string }[] {
  let params = queryParametersOf.get(op.pointer);
  if (!params) {
    params = readQueryParameters(op);
    queryParametersOf.set(op.pointer, params);
  }
  return params;
}

function readQueryParameters(op: Operation): { name: string; required: boolean; pointer: string }[] {
  const list = op.node.parameters;
  if (!Array.isArray(list)) return [];
  return (list as readonly Json[]).flatMap((entry, index) => {
    if (!isObject(entry)) return [];
    const param = resolve({ node: entry, pointer: `${op.pointer}/parameters/${index}` });
    const { name, required } = param.node;
    if (param.node.in !== 'query' || typeof name !== 'string') return [];
    return [{ name, required: required === true, pointer: child(param.pointer, 'schema') }];
  });
}

/**
 * Validates query parameters, converting strings to the declared types first ('5' is an integer).
 * Parameters the operation does not declare are ignored.
 *
 * @example validateQuery('listVoices', { page_size: '21' }) // [{ pointer: '/page_size', keyword: 'maximum', … }]
 */
export function validateQuery(operationId: OperationId, query: Record<string, string>): SchemaProblem[] {
  const op = operations().get(operationId);
  if (!op) return unknownOperation(operationId);
  const params = queryParameters(op);
  if (params.length === 0) return [];
  // An empty query can only miss a required parameter (most list requests have none).
  if (!params.some((p) => p.required) && Object.keys(query).length === 0) return [];
  const validate = validatorFor(`${op.pointer}/parameters?in=query`, true);
  const copy: Record<string, unknown> = { ...query }; // coercion rewrites values in place
  return validate(copy) ? [] : toFindings(validate.errors);
}

function responseFor(op: Operation, status: number | 'default'): Located | undefined {
  const responses = at(op, 'responses');
  return responses && at(responses, String(status));
}

/**
 * The HTTP statuses documented for an operation, ascending.
 *
 * @example documentedStatuses('deleteVoice') // [200, 400, 401, 403, 500]
 */
export function documentedStatuses(operationId: OperationId): number[] {
  const responses = operations().get(operationId)?.node.responses;
  if (!isObject(responses)) return [];
  return Object.keys(responses)
    .filter((key) => /^\d{3}$/.test(key))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Validates a parsed JSON response body against the schema documented for that status (or
 * `default`). A status the operation does not document gives one finding with keyword 'status'; a
 * documented response without a JSON body (synthesis audio) gives none.
 *
 * @example validateResponse('listVoices', 418, {}) // [{ pointer: '', keyword: 'status', … }]
 */
export function validateResponse(operationId: OperationId, status: number, body: unknown): SchemaProblem[] {
  const op = operations().get(operationId);
  if (!op) return unknownOperation(operationId);
  const response = responseFor(op, status) ?? responseFor(op, 'default');
  if (!response) {
    const documented = documentedStatuses(operationId).join(', ');
    return [
      {
        pointer: '',
        keyword: 'status',
        message: `${operationId} does not document HTTP ${status} (documented: ${documented})`,
      },
    ];
  }
  const content = at(response, 'content');
  const json = content && at(content, 'application/json');
  if (!json?.node.schema) return [];
  const validate = validatorFor(child(json.pointer, 'schema'));
  return validate(body) ? [] : toFindings(validate.errors);
}

/**
 * The first documented error example of an operation for a status, as used for `Prefer: code=NNN`.
 *
 * @example errorExample('uploadFile', 413) // { error_code: 20010, error_message: 'file is larger than …' }
 */
export function errorExample(
  operationId: OperationId,
  status: number,
): { error_code: number; error_message: string } | undefined {
  const op = operations().get(operationId);
  const response = op && responseFor(op, status);
  const content = response && at(response, 'content');
  const json = content && at(content, 'application/json');
  if (!json) return undefined;
  const examples = isObject(json.node.examples) ? Object.values(json.node.examples) : [];
  const values = [
    json.node.example,
    ...examples.map((example) => (isObject(example) ? example.value : undefined)),
  ];
  for (const value of values) {
    if (!isObject(value)) continue;
    const { error_code: code, error_message: message } = value;
    if (typeof code === 'number' && code !== 0 && typeof message === 'string') {
      return { error_code: code, error_message: message };
    }
  }
  return undefined;
}

/** Every operationId the document declares, in document order (a test compares it with contract.ts). */
export function documentedOperationIds(): string[] {
  return [...operations().keys()];
}
