/**
 * The session's tally: every exchange as it ends, its violations, the counts, and `report()` of it all.
 * Exchanges and violations are kept up to a cap; the counts cover them all.
 */
import type { IncomingMessage } from 'node:http';
import type { Verdict } from '../judge/index.js';
import { operations } from '../openapi/document-index.js';
import { ExchangeObserver, type ObserverOptions } from './exchange.js';
import type { HarEntryTap, HarRecorder } from './har.js';
import { type Shadow, subsumedByShadow } from './shadow.js';
import type { ExchangeRecord, ProxyReport, Violation } from './types.js';

/** One exchange in flight: its observer, and its HAR entry when a HAR is recorded. */
export interface ExchangeInFlight {
  readonly observer: ExchangeObserver;
  readonly tap: HarEntryTap | undefined;
}

export interface SessionOptions {
  readonly upstream: URL;
  readonly observer: ObserverOptions;
  readonly maxExchanges: number;
  /** Upstream errors a session may have and still pass (unless every exchange was one). */
  readonly maxUpstreamErrors: number;
  readonly har: HarRecorder | undefined;
  readonly onViolation?: (violation: Violation, exchange: ExchangeRecord) => void;
  readonly onExchange?: (exchange: ExchangeRecord) => void;
  /** `--shadow`: the differential oracle each complete exchange is also compared by. */
  readonly shadow?: Shadow;
}

export class ProxySession {
  private readonly startedAt = new Date();
  private readonly exchanges: ExchangeRecord[] = [];
  private readonly violations: Violation[] = [];
  private exchangeCount = 0;
  private violationCount = 0;
  private mustCount = 0;
  private upstreamErrors = 0;
  private nextId = 1;

  constructor(private readonly options: SessionOptions) {}

  /** A new exchange of `method` on `target` (the path the upstream is sent). */
  begin(method: string, target: string, req: IncomingMessage): ExchangeInFlight {
    const observer = new ExchangeObserver(this.nextId++, method, target, req.headers, this.options.observer);
    const tap = this.options.har?.begin(observer.record.id, method, target, req.rawHeaders, req.headers);
    return { observer, tap };
  }

  /** The exchange ended (`aborted`: who cut it); recorded once, however many sides saw the end. */
  finish(
    { observer: ex, tap }: ExchangeInFlight,
    aborted: ExchangeRecord['aborted'] = null,
    error?: string,
  ): void {
    if (ex.ended) return;
    let findings: ReturnType<ExchangeObserver['end']>;
    try {
      findings = ex.end(aborted, error);
    } catch (e) {
      // A bug of the judge must not take the proxy down: the bytes have passed already.
      ex.record.notes.push(`the proxy could not judge this exchange: ${(e as Error).message}`);
      findings = [];
    }
    const record = ex.record;
    this.exchangeCount++;
    if (aborted === 'upstream' || aborted === 'upstream-unreachable') this.upstreamErrors++;
    if (this.exchanges.length < this.options.maxExchanges) this.exchanges.push(record);
    const shadowed =
      this.options.shadow !== undefined &&
      ex.judged !== undefined &&
      this.options.shadow.observe(ex.judged, (verdicts, failure) => {
        if (failure) record.notes.push(failure);
        this.add(verdicts, record);
      });
    this.add(shadowed ? findings.filter((f) => !subsumedByShadow.has(f.rule)) : findings, record);
    tap?.end(record);
    this.options.onExchange?.(record);
  }

  /** The findings of an exchange become the session's violations. */
  private add(findings: readonly Verdict[], record: ExchangeRecord): void {
    for (const f of findings) {
      const violation: Violation = {
        rule: f.rule,
        severity: f.severity,
        section: f.section,
        operationId: record.operationId ?? '',
        operation: `${record.method} ${operationPath(record.operationId)}`,
        method: record.method,
        path: record.path,
        seen: f.seen,
        exchange: record.id,
        ...(f.evidence ? { evidence: f.evidence } : {}),
      };
      // Kept up to the same cap as exchanges, so a long session against a bad upstream stays bounded.
      if (this.violations.length < this.options.maxExchanges) this.violations.push(violation);
      if (violation.severity === 'must') this.mustCount++;
      this.violationCount++;
      record.violations++;
      this.options.onViolation?.(violation, record);
    }
  }

  /** The session so far. */
  report(): ProxyReport {
    const must = this.mustCount;
    const errors = this.upstreamErrors;
    // A proxy in front of a wrong upstream sees no answer to judge: that is no pass.
    const upstreamFailed =
      errors > 0 && (errors > this.options.maxUpstreamErrors || errors === this.exchangeCount);
    return {
      upstream: this.options.upstream.href,
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      ok: must === 0 && !upstreamFailed,
      upstreamFailed,
      maxUpstreamErrors: this.options.maxUpstreamErrors,
      counts: {
        exchanges: this.exchangeCount,
        violations: this.violationCount,
        must,
        should: this.violationCount - must,
        upstreamErrors: this.upstreamErrors,
      },
      exchanges: [...this.exchanges],
      violations: [...this.violations],
    };
  }
}

/** The path template of an operation (`/v1/voice/{voice_id}`), or `?` for none. */
function operationPath(operationId: string | null): string {
  return (operationId && operations().get(operationId)?.path) || '?';
}
