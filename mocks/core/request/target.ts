import type { KeptMap } from '../state/kept-map.js';

/** Path prefix of the control API; needs no API key. */
export const controlPrefix = '/__mock/';

/**
 * A request URL as the core reads it: parsed once, its path read once (each read of `pathname` makes a
 * string), its query made a frozen record on first use. Shared by every request for the same URL
 * (clients repeat the same few: the list, a page): read it, never change it.
 */
export interface Target {
  readonly url: URL;
  readonly pathname: string;
  /** Under /__mock/: the control API, not an operation. */
  readonly control: boolean;
  /** The query parameters (the first value of each name). */
  readonly query: Readonly<Record<string, string>>;
}

class ParsedTarget implements Target {
  readonly pathname: string;
  readonly control: boolean;
  private parameters: Readonly<Record<string, string>> | undefined;

  constructor(readonly url: URL) {
    this.pathname = url.pathname;
    this.control = this.pathname.startsWith(controlPrefix);
  }

  get query(): Readonly<Record<string, string>> {
    this.parameters ??= Object.freeze(Object.fromEntries(this.url.searchParams));
    return this.parameters;
  }
}

/**
 * The target of a request URL, from the service's kept targets or parsed now (throws for a URL that
 * does not parse, as `new URL` does).
 *
 * @example
 * const target = targetOf(request.url, state.caches.targets);
 */
export function targetOf(href: string, kept: KeptMap<string, Target>): Target {
  let target = kept.get(href);
  if (!target) {
    target = new ParsedTarget(new URL(href));
    kept.set(href, target);
  }
  return target;
}
