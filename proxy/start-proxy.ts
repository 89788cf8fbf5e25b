/**
 * The proxy server: every request and its answer pass through as streams, byte for byte, with
 * backpressure both ways (a chunk is written on as it arrives; the reading side pauses while the
 * writing side is full), hop-by-hop headers dropped and Host rewritten. Each chunk is shown to the
 * exchange's observer in the same turn, synchronously; the observer never holds a chunk back.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { youngSweep } from '../common/young-sweep.js';
import { operations } from '../openapi/document-index.js';
import { createJudge, type JudgeOptions } from '../judge/judge.js';
import type { KeyScope } from '../judge/session.js';
import { endToEnd, upstreamHeaders } from './hop-by-hop.js';
import { ExchangeObserver } from './exchange.js';
import { HarRecorder } from './har.js';
import { writeProxyReports } from './reports.js';
import type { ExchangeRecord, ProxyReport, Violation } from './types.js';

export interface ProxyOptions {
  /** The deployment to pass traffic to: `https://staging.example/` (a path prefix is kept). */
  readonly upstream: string;
  /** Port to listen on (default 4020; 0 picks a free one). */
  readonly port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** When given, `close()` writes proxy.json, proxy.junit.xml and proxy.md here. */
  readonly reportDir?: string;
  /** PCM header names, when the deployment uses others than the kit's (§2.5 leaves them open). */
  readonly pcmHeaders?: JudgeOptions['pcmHeaders'];
  /**
   * key → { organization, project, environment } of each API key the clients use: turns on the
   * cross-key session rules (an object key used from another scope). Keys never appear in reports.
   */
  readonly keys?: Readonly<Record<string, KeyScope>>;
  /**
   * The proxy sees all traffic to the upstream (no other client): the session rules that need a complete
   * view (a voice missing from a full list walk, free-use arithmetic) are `must`, else `should`.
   */
  readonly soleClient?: boolean;
  /** JSON bodies are validated up to this size (default 2 MiB); a larger one is noted, not held. */
  readonly jsonLimitBytes?: number;
  /** Exchanges, and violations, kept for the report (default 10,000 each); the counts cover them all. */
  readonly maxExchanges?: number;
  /** When given, the session is also recorded as HAR 1.2 in this file (bodies as side files beside it). */
  readonly har?: string;
  /**
   * How long the upstream may stay silent, in ms (default 120,000; 0: forever): counted from the
   * request's end to the answer's head, and between two chunks of the answer. Silent before the head,
   * the client gets a 504 envelope; silent mid-answer, the client's answer is cut.
   */
  readonly upstreamTimeoutMs?: number;
  /** Called as each violation is found. */
  readonly onViolation?: (violation: Violation, exchange: ExchangeRecord) => void;
  /** Called as each exchange ends. */
  readonly onExchange?: (exchange: ExchangeRecord) => void;
}

export interface ProxyServer {
  /** `http://127.0.0.1:4020`, where clients send their requests instead of the upstream. */
  readonly url: string;
  readonly port: number;
  readonly upstream: string;
  /** The session so far. */
  report(): ProxyReport;
  /** Stops listening, cuts open connections, and writes the reports when `reportDir` was given. */
  close(): Promise<{ readonly report: ProxyReport; readonly files: readonly string[] }>;
}

/**
 * The §2.1 envelope of the proxy's own 502 (the upstream cannot be reached) or 504 (it stayed silent
 * past the upstream timeout).
 */
function badGateway(res: ServerResponse, why: string, status: 502 | 504 = 502): void {
  const body = JSON.stringify({
    error_code: 10000,
    error_message:
      status === 504
        ? `voice-kit proxy: the upstream did not answer in time (${why})`
        : `voice-kit proxy: the upstream cannot be reached (${why})`,
    succeed: false,
    data: null,
  });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The error an upstream timeout destroys the upstream request with. */
class UpstreamTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * Starts the validating proxy.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://staging.example', port: 0, reportDir: 'reports/proxy' });
 * // point the app at proxy.url, run it, then:
 * const { report } = await proxy.close();
 * process.exitCode = report.ok ? 0 : 1;
 */
export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`the upstream must be an http: or https: URL, got ${options.upstream}`);
  const secure = upstream.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true });
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const judge = createJudge({
    ...(options.pcmHeaders ? { pcmHeaders: options.pcmHeaders } : {}),
    ...(options.keys ? { keys: options.keys } : {}),
    completeView: options.soleClient === true,
  });
  const observerOptions = { jsonLimitBytes: options.jsonLimitBytes ?? 2 * 1024 * 1024, judge };
  const maxExchanges = options.maxExchanges ?? 10_000;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 120_000;
  const startedAt = new Date();
  const exchanges: ExchangeRecord[] = [];
  const violations: Violation[] = [];
  let exchangeCount = 0;
  let violationCount = 0;
  let mustCount = 0;
  let upstreamErrors = 0;
  let nextId = 1;
  const har = options.har ? new HarRecorder(options.har, upstream) : undefined;
  const tapOf = new Map<ExchangeObserver, ReturnType<HarRecorder['begin']>>();
  // Bytes only pass through here: without sweeps a 200 MB upload grew the proxy by ~80 MB.
  const swept = youngSweep();

  const finish = (ex: ExchangeObserver, aborted: ExchangeRecord['aborted'] = null, error?: string) => {
    if (ex.ended) return; // a cut is seen from both sides: recorded once
    let findings: ReturnType<ExchangeObserver['end']>;
    try {
      findings = ex.end(aborted, error);
    } catch (e) {
      // A bug of the judge must not take the proxy down: the bytes have passed already.
      ex.record.notes.push(`the proxy could not judge this exchange: ${(e as Error).message}`);
      findings = [];
    }
    const record = ex.record;
    exchangeCount++;
    if (aborted === 'upstream' || aborted === 'upstream-unreachable') upstreamErrors++;
    if (exchanges.length < maxExchanges) exchanges.push(record);
    const operation = record.operationId;
    for (const f of findings) {
      const violation: Violation = {
        rule: f.rule,
        severity: f.severity,
        section: f.section,
        operationId: operation ?? '',
        operation: `${record.method} ${operationPath(operation)}`,
        method: record.method,
        path: record.path,
        seen: f.seen,
        exchange: record.id,
        ...(f.evidence ? { evidence: f.evidence } : {}),
      };
      // Kept up to the same cap as exchanges, so a long session against a bad upstream stays bounded.
      if (violations.length < maxExchanges) violations.push(violation);
      if (violation.severity === 'must') mustCount++;
      violationCount++;
      record.violations++;
      options.onViolation?.(violation, record);
    }
    tapOf.get(ex)?.end(record);
    tapOf.delete(ex);
    options.onExchange?.(record);
  };


  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const ex = new ExchangeObserver(nextId++, method, url, req.headers, observerOptions);
    const tap = har?.begin(ex.record.id, method, url, req.rawHeaders, req.headers);
    if (tap) tapOf.set(ex, tap);
    const headers = upstreamHeaders(req.headers, upstream.host);
    delete headers.expect; // this server already answered any 100-continue
    if (req.headers['transfer-encoding'] && req.headers['content-length'] === undefined)
      headers['transfer-encoding'] = 'chunked';
    let answered = false;
    let requestDone = false;
    const upReq = transport.request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port || (secure ? 443 : 80),
      method,
      path: prefix + url,
      headers,
      agent,
    });
    upReq.setNoDelay(true);
    // The upstream's silence is timed from the request's end and between answer chunks, never while
    // the client is still sending (a slow upload is the client's pace, not the upstream's).
    let silence: NodeJS.Timeout | undefined;
    let timedOut: string | undefined;
    const quiet = () => {
      if (silence) clearTimeout(silence);
      silence = undefined;
    };
    const listen = () => {
      if (upstreamTimeoutMs <= 0 || upReq.destroyed) return;
      quiet();
      silence = setTimeout(() => {
        timedOut = `the upstream sent nothing for ${upstreamTimeoutMs} ms`;
        upReq.destroy(new UpstreamTimeout(timedOut));
      }, upstreamTimeoutMs);
      silence.unref();
    };
    upReq.on('close', quiet);

    upReq.on('response', (upRes) => {
      answered = true;
      listen();
      const status = upRes.statusCode ?? 502;
      ex.responseHead(status, upRes.headers);
      tap?.responseHead(status, upRes.statusMessage ?? '', upRes.rawHeaders, upRes.headers);
      res.writeHead(status, upRes.statusMessage, endToEnd(upRes.rawHeaders));
      // The head goes out with the first body chunk when that is in the same turn (one write for a
      // small answer), else on its own at once: a stream whose first chunk waits still shows its head.
      setImmediate(() => {
        if (!res.headersSent && !res.destroyed) res.flushHeaders();
      });
      upRes.on('data', (chunk: Buffer) => {
        listen();
        ex.responseChunk(chunk);
        tap?.responseChunk(chunk);
        swept(chunk.length);
        // A client that reads slowly holds the upstream back: that wait is not the upstream's silence.
        if (!res.write(chunk)) {
          upRes.pause();
          quiet();
        }
      });
      res.on('drain', () => {
        upRes.resume();
        if (!upRes.complete) listen();
      });
      upRes.on('end', () => {
        quiet();
        res.end();
        finish(ex);
      });
      // The upstream cut its answer (a reset, a close before the last byte): the client's is cut too.
      upRes.on('error', (error) => {
        finish(ex, 'upstream', timedOut ?? error.message);
        res.destroy();
      });
      upRes.on('close', () => {
        if (upRes.complete) return;
        finish(ex, 'upstream', timedOut ?? 'the upstream cut its answer');
        res.destroy();
      });
    });
    upReq.on('error', (error) => {
      quiet();
      if (!answered) {
        req.resume(); // read and drop the rest of the request
        const timedOut = error instanceof UpstreamTimeout;
        if (!res.headersSent) badGateway(res, timedOut ? error.message : ((error as NodeJS.ErrnoException).code ?? error.message), timedOut ? 504 : 502);
        else res.destroy();
        finish(ex, 'upstream-unreachable', error.message);
      } else if (!requestDone) req.resume(); // the upstream answered and closed early: drop the rest
    });
    upReq.on('drain', () => req.resume());

    req.on('data', (chunk: Buffer) => {
      ex.requestChunk(chunk);
      tap?.requestChunk(chunk);
      swept(chunk.length);
      if (upReq.destroyed) return;
      if (!upReq.write(chunk)) req.pause();
    });
    req.on('end', () => {
      requestDone = true;
      ex.requestEnd();
      if (!upReq.destroyed) upReq.end();
      if (!answered) listen();
    });
    req.on('error', () => upReq.destroy());
    // The client went away before the answer ended: the upstream exchange is cut too.
    res.on('close', () => {
      if (!res.writableFinished) {
        upReq.destroy();
        finish(ex, 'client');
      }
    });
  };

  const server = http.createServer({ noDelay: true, keepAlive: true }, handle);
  // A malformed request line or head: Node answers 400 itself; the proxy must stay up.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4020, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const report = (): ProxyReport => {
    const must = mustCount;
    return {
      upstream: upstream.href,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      ok: must === 0,
      counts: {
        exchanges: exchangeCount,
        violations: violationCount,
        must,
        should: violationCount - must,
        upstreamErrors,
      },
      exchanges: [...exchanges],
      violations: [...violations],
    };
  };

  let closing: Promise<{ report: ProxyReport; files: readonly string[] }> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    upstream: upstream.href,
    report,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // In-flight exchanges get a moment to end, then are cut (and recorded as cut by the client).
        const grace = setTimeout(() => server.closeAllConnections(), 1000);
        await closed;
        clearTimeout(grace);
        agent.destroy();
        const final = report();
        const files = options.reportDir ? await writeProxyReports(final, options.reportDir) : [];
        if (har) files.push(await har.close());
        return { report: final, files };
      })();
      return closing;
    },
  };
}


/** The path template of an operation (`/v1/voice/{voice_id}`), or `?` for none. */
function operationPath(operationId: string | null): string {
  return (operationId && operations().get(operationId)?.path) || '?';
}
