/**
 * Routing of a method and path to an operation of the OpenAPI document, the way the mock and the
 * MSW handlers decide between an operation, 405 and 404.
 *
 * @example
 * matchRoute('PUT', '/v1/voice/list') // { kind: 'method-not-allowed', allowed: ['DELETE', 'GET'] }
 */
import type { OperationId } from './contract.js';
import { type Operation, operations } from './document-index.js';

/**
 * The outcome of routing a method and path against the document's paths. Read-only: one outcome is
 * kept per method and path and handed to every request for it.
 */
export type RouteMatch =
  | {
      readonly kind: 'match';
      readonly operationId: OperationId;
      readonly pathParams: Readonly<Record<string, string>>;
      /**
       * A path parameter whose percent-encoding is malformed (`%FF`, `%zz`): it is kept as sent in
       * `pathParams`, and the operation's answer is a 400, not a 404 (the path names an operation).
       */
      readonly malformedParam?: string;
    }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

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
): { params: Record<string, string>; literals: number; malformedParam?: string } | undefined {
  const params: Record<string, string> = {};
  let literals = 0;
  let malformedParam: string | undefined;
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
      params[part.param] = value;
      malformedParam = part.param;
    }
  }
  return malformedParam === undefined ? { params, literals } : { params, literals, malformedParam };
}

/**
 * Routes a request to an operation of the document. Templated segments (`{voice_id}`) match one
 * non-empty segment and are percent-decoded; literal segments win over templates.
 *
 * @example matchRoute('DELETE', '/v1/voice/my%20voice') // { kind: 'match', operationId: 'deleteVoice', pathParams: { voice_id: 'my voice' } }
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  // Every request is routed, and clients repeat the same few paths: the outcome is kept (bounded),
  // per method and then per path, so that no key string is joined per request.
  let forMethod = recent.get(method);
  if (!forMethod) {
    if (recent.size >= 16) recent.clear();
    forMethod = new Map();
    recent.set(method, forMethod);
  }
  let match = forMethod.get(pathname);
  if (!match) {
    match = freeze(route(method, pathname));
    // Only short paths are kept: the service's are all short, and a memo of long ones (anyone can send
    // 16 KB paths with no key) kept megabytes that lived long enough to bloat the heap.
    if (pathname.length > recentMaxPathChars) return match;
    if (forMethod.size >= recentCapacity) forMethod.clear();
    forMethod.set(pathname, match);
  }
  return match;
}

const recentCapacity = 1024;
const recentMaxPathChars = 256;
const recent = new Map<string, Map<string, RouteMatch>>();

/** A kept outcome is shared by every request for it: frozen, so that no caller changes the next. */
function freeze(match: RouteMatch): RouteMatch {
  if (match.kind === 'match') Object.freeze(match.pathParams);
  if (match.kind === 'method-not-allowed') Object.freeze(match.allowed);
  return Object.freeze(match);
}

function route(method: string, pathname: string): RouteMatch {
  const wanted = method.toUpperCase();
  const actual = segmentsOf(pathname);
  const candidates: {
    op: Operation;
    params: Record<string, string>;
    literals: number;
    malformedParam?: string;
  }[] = [];
  for (const route of allRoutes()) {
    if (route.parts.length !== actual.length) continue;
    const fits = matchTemplate(route, actual);
    if (fits) candidates.push({ op: route.op, ...fits });
  }
  if (candidates.length === 0) return { kind: 'not-found' };
  candidates.sort((a, b) => b.literals - a.literals);
  const hit = candidates.find((candidate) => candidate.op.method === wanted);
  if (hit) {
    const operationId = hit.op.node.operationId as OperationId;
    const { malformedParam } = hit;
    return malformedParam === undefined
      ? { kind: 'match', operationId, pathParams: hit.params }
      : { kind: 'match', operationId, pathParams: hit.params, malformedParam };
  }
  const allowed = [...new Set(candidates.map((candidate) => candidate.op.method))].sort();
  return { kind: 'method-not-allowed', allowed };
}
