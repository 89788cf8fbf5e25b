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

/** A path template split once: each segment is a literal or the name of a parameter. */
interface Route {
  readonly op: Operation;
  readonly parts: readonly { readonly literal?: string; readonly param?: string }[];
}

let routes: Route[] | undefined;
function allRoutes(): Route[] {
  routes ??= [...operations().values()].map((op) => ({
    op,
    parts: segmentsOf(op.path).map((part) => {
      const param = /^\{(.+)\}$/.exec(part)?.[1];
      return param ? { param } : { literal: part };
    }),
  }));
  return routes;
}

function matchTemplate(
  route: Route,
  actual: string[],
): { params: Record<string, string>; literals: number } | undefined {
  const params: Record<string, string> = {};
  let literals = 0;
  for (const [index, part] of route.parts.entries()) {
    const value = actual[index] ?? '';
    if (part.param === undefined) {
      if (part.literal !== value) return undefined;
      literals++;
      continue;
    }
    if (value === '') return undefined;
    try {
      params[part.param] = decodeURIComponent(value);
    } catch {
      return undefined; // malformed percent-encoding names no resource
    }
  }
  return { params, literals };
}

/**
 * Routes a request to an operation of the document. Templated segments (`{voice_id}`) match one
 * non-empty segment and are percent-decoded; literal segments win over templates.
 *
 * @example matchRoute('DELETE', '/v1/voice/my%20voice') // { kind: 'match', operationId: 'deleteVoice', pathParams: { voice_id: 'my voice' } }
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  // Every request is routed, and clients repeat the same few paths: the outcome is kept (bounded).
  const key = `${method} ${pathname}`;
  let match = recent.get(key);
  if (!match) {
    if (recent.size >= recentCapacity) recent.clear();
    match = route(method, pathname);
    recent.set(key, match);
  }
  return copyOf(match);
}

const recentCapacity = 1024;
const recent = new Map<string, RouteMatch>();

/** A copy a caller may change without changing the next answer. */
function copyOf(match: RouteMatch): RouteMatch {
  // Built field by field: a spread followed by an override takes V8's slow path on every request.
  if (match.kind === 'match') {
    return { kind: 'match', operationId: match.operationId, pathParams: Object.assign({}, match.pathParams) };
  }
  if (match.kind === 'method-not-allowed') return { kind: 'method-not-allowed', allowed: [...match.allowed] };
  return match;
}

function route(method: string, pathname: string): RouteMatch {
  const wanted = method.toUpperCase();
  const actual = segmentsOf(pathname);
  const candidates: { op: Operation; params: Record<string, string>; literals: number }[] = [];
  for (const route of allRoutes()) {
    if (route.parts.length !== actual.length) continue;
    const fits = matchTemplate(route, actual);
    if (fits) candidates.push({ op: route.op, ...fits });
  }
  if (candidates.length === 0) return { kind: 'not-found' };
  candidates.sort((a, b) => b.literals - a.literals);
  const hit = candidates.find((candidate) => candidate.op.method === wanted);
  if (hit)
    return { kind: 'match', operationId: hit.op.node.operationId as OperationId, pathParams: hit.params };
  const allowed = [...new Set(candidates.map((candidate) => candidate.op.method))].sort();
  return { kind: 'method-not-allowed', allowed };
}
