import type { OperationId } from '../openapi/contract.js';
import { documentedStatuses, validateResponse } from '../openapi/validate.js';

/** A schema violation, named by its JSON pointer. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/**
 * Validate a JSON body against the OpenAPI schema of its operation and status. A status the
 * description does not list has no schema: `documented` is false and the envelope rules alone apply.
 *
 * @example
 * const { documented, problems } = schemaProblems('listVoices', 200, json);
 */
export function schemaProblems(
  operationId: OperationId,
  status: number,
  body: unknown,
): { readonly documented: boolean; readonly problems: readonly SchemaProblem[] } {
  const statuses = documentedStatuses(operationId).map(String);
  if (!statuses.includes(String(status))) return { documented: false, problems: [] };
  const findings = validateResponse(operationId, status, body);
  return {
    documented: true,
    problems: findings.map((f) => ({ pointer: f.pointer, message: `${f.message} (${f.keyword})` })),
  };
}
