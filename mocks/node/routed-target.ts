import { type Failure, fail, quoted } from '../core/answer/envelope.js';
import { type Target, targetOf } from '../core/request/target.js';
import type { KeptMap } from '../core/state/kept-map.js';
import type { RecentUrls } from './read-request.js';

/**
 * The URL the core will route a request by, made once per request: the control guard judges its
 * path and the core routes that same URL (`targetOf`, which the core calls again and finds kept).
 * Judging the raw target instead let `/\[/../../__mock/populate` through the guard: one URL parse
 * refused it, the core's (origin + target) read it as /__mock/populate.
 */
export interface Routed {
  /** The absolute URL handed to the core as the request's `url`. */
  readonly href: string;
  readonly target: Target;
}

/** What the server keeps to route requests: Host → origin, origin + target → URL, URL → Target. */
export interface RouteMemos {
  readonly origins: KeptMap<string, string | null>;
  readonly urls: RecentUrls;
  readonly targets: KeptMap<string, Target>;
}

/**
 * The origin of a Host header a client sent, made once per Host (a handful) instead of per request;
 * null for a Host that is not host[:port] ("evil.test/x?" would otherwise become part of the path).
 */
export function originOf(host: string, origins: KeptMap<string, string | null>): string | null {
  let origin = origins.get(host);
  if (origin === undefined) {
    origin = null;
    try {
      const url = new URL(`http://${host}`);
      const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
      if (bare && !host.includes('/') && !host.includes('@')) origin = url.origin;
    } catch {
      // not a host: refused by the caller
    }
    origins.set(host, origin);
  }
  return origin;
}

/**
 * The routed URL of a raw request target (origin-form or absolute-form) that came with `host` (the
 * first Host header; `fallbackOrigin` without one), or the 400/10001 failure of a Host or a target
 * that is no URL. Never the raw target: what cannot be parsed is refused, not judged as text.
 *
 * @example
 * const routed = routedTarget(req.url ?? '/', firstHost(req.rawHeaders), 'http://127.0.0.1:4010', memos);
 */
export function routedTarget(
  rawTarget: string,
  host: string | undefined,
  fallbackOrigin: string,
  memos: RouteMemos,
): Routed | Failure {
  const origin = host === undefined ? fallbackOrigin : originOf(host, memos.origins);
  if (origin === null) return fail('invalidRequest', `Host header ${quoted(host ?? '')} is not host[:port]`);
  try {
    const href = memos.urls.of(rawTarget, origin);
    return { href, target: targetOf(href, memos.targets) };
  } catch {
    // Node's parser lets through targets URL cannot read (`//[`): an answer, not a dropped connection.
    return fail('invalidRequest', `request target ${quoted(rawTarget)} is not a URL`);
  }
}
