/** The shapes of a proxy session's results: what proxy.json holds and what `startProxy` hands back. */
import type { Severity } from '../judge/rules.js';

/** One contract rule broken by one exchange. */
export interface Violation {
  /** The rule's stable id (rules.ts), e.g. `error-code.for-status`. */
  readonly rule: string;
  readonly severity: Severity;
  /** The section of the service interface spec. */
  readonly section: string;
  readonly operationId: string;
  /** `POST /v1/files/upload`: the method and the operation's path template. */
  readonly operation: string;
  readonly method: string;
  /** The request's path and query as sent. */
  readonly path: string;
  /** What was seen. */
  readonly seen: string;
  /** The id of the exchange it came from. */
  readonly exchange: number;
  /** For a session rule: the earlier exchange that set the expectation ("deleted at exchange 12"). */
  readonly evidence?: { readonly exchange: number; readonly what: string };
}

/** One request and its answer, as the proxy saw them pass. */
export interface ExchangeRecord {
  readonly id: number;
  readonly startedAt: string;
  readonly method: string;
  readonly path: string;
  /** The operation the request routes to, or null for a path outside the contract. */
  readonly operationId: string | null;
  /** The answer's status; null when there was none (upstream unreachable, an abort before it). */
  status: number | null;
  contentType: string | null;
  requestBytes: number;
  responseBytes: number;
  /** Body chunks of the answer, and ms from the request's end to the first, and first to last. */
  chunks: number;
  ttfbMs: number | null;
  durationMs: number | null;
  /** Audio the answer held, seconds, when its framing says. */
  audioSeconds: number | null;
  /** `client` or `upstream` when that side cut the exchange; `upstream-unreachable` for a 502 of the proxy. */
  aborted: 'client' | 'upstream' | 'upstream-unreachable' | null;
  upstreamError: string | null;
  /** Where the request leaves the contract: reported, never a violation (the client's business). */
  requestProblems: string[];
  /** What was not checked, and why. */
  notes: string[];
  violations: number;
}

/** The whole session. */
export interface ProxyReport {
  readonly upstream: string;
  readonly startedAt: string;
  readonly durationMs: number;
  /** true when no must-rule was violated and the upstream did not fail (`upstreamFailed`). */
  readonly ok: boolean;
  /**
   * true when upstream errors (no answer, or one broken off) passed `maxUpstreamErrors`, or when every
   * exchange of the session was one: a proxy in front of a wrong or dead upstream judged nothing.
   */
  readonly upstreamFailed: boolean;
  /** The upstream errors the session was allowed (`maxUpstreamErrors` of `startProxy`, default 0). */
  readonly maxUpstreamErrors: number;
  readonly counts: {
    readonly exchanges: number;
    readonly violations: number;
    readonly must: number;
    readonly should: number;
    readonly upstreamErrors: number;
  };
  /** The first `maxExchanges` exchanges (counts hold them all). */
  readonly exchanges: readonly ExchangeRecord[];
  readonly violations: readonly Violation[];
}
