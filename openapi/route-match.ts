/**
 * Routing of a method and path to an operation of the OpenAPI document, the way the mock and the
 * MSW handlers decide between an operation, 405 and 404.
 *
 * @example
 * matchRoute('PUT', '/v1/voice/list') // { kind: 'method-not-allowed', allowed: ['DELETE', 'GET'] }
 */
import type { OperationId } from './contract.js';
import { type Operation, operations } from './document-index.js';

/** The outcome of routing a method and path against the document's paths. */
export type RouteMatch =
  | { kind: 'match'; operationId: OperationId; pathParams: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

function segmentsOf(path: string): string[] {
  return path.split('/').slice(1);
}

/**
 * Routes a request to an operation of the document. Templated segments (`{voice_id}`) match one
 * non-empty segment and are percent-decoded; literal segments win over templates.
 *
 * @example matchRoute('DELETE', '/v1/voice/my%20voice') // { kind: 'match', operationId: 'deleteVoice', pathParams: { voice_id: 'my voice' } }
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const wanted = method.toUpperCase();
  const actual = segmentsOf(pathname);
  const candidates: { op: Operation; params: Record<string, string>; literals: number }[] = [];
  for (const op of operations().values()) {
    const template = segmentsOf(op.path);
    if (template.length !== actual.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const fits = template.every((part, index) => {
      const value = actual[index] ?? '';
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (!name) return part === value && ++literals > 0;
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return false; // malformed percent-encoding names no resource
      }
      return value !== '';
    });
    if (fits) candidates.push({ op, params, literals });
  }
  if (candidates.length === 0) return { kind: 'not-found' };
  candidates.sort((a, b) => b.literals - a.literals);
  const hit = candidates.find((candidate) => candidate.op.method === wanted);
  if (hit)
    return { kind: 'match', operationId: hit.op.node.operationId as OperationId, pathParams: hit.params };
  const allowed = [...new Set(candidates.map((candidate) => candidate.op.method))].sort();
  return { kind: 'method-not-allowed', allowed };
}
