/**
 * `startProxy`: the validating proxy's server, in named steps: the upstream link, the writable places
 * for the reports and the HAR (checked before anything listens), the session's tally, the listening
 * server (each request is passed through by pass-through.ts), and `close()`, which stops it and writes
 * the reports.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataHeaderProblem } from '../common/header-names.js';
import { createJudge, type Judge, type JudgeOptions } from '../judge/judge.js';
import type { KeyScope } from '../judge/session.js';
import { createProfileRecorder, type ProfileRecorder } from '../profile/recorder.js';
import type { Profile } from '../profile/types.js';
import { profilePathProblem, writeProfileFile } from '../profile/write-file.js';
import { HarRecorder } from './har.js';
import { JudgeBudget } from './judge-budget.js';
import { passThrough } from './pass-through.js';
import { writeProxyReports } from './reports.js';
import { ProxySession } from './session.js';
import { Shadow } from './shadow.js';
import type { ExchangeRecord, ProxyReport, Violation } from './types.js';
import { type UpstreamLink, upstreamLink } from './upstream-link.js';
import { ensureWritableDir, ProxySetupError, ReportWriteError } from './writable-dir.js';

export interface ProxyOptions {
  /** The deployment to pass traffic to: `https://staging.example/` (a path prefix is kept). */
  readonly upstream: string;
  /** Port to listen on (default 4020; 0 picks a free one). */
  readonly port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /**
   * When given, `close()` writes proxy.json, proxy.junit.xml and proxy.md here. The folder is made and
   * proven writable at start: `startProxy` rejects with a `ProxySetupError` when it cannot be.
   */
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
  /**
   * Compare every exchange with the kit's mock core too (oracle/, docs/proxy.md "Shadowing"): an
   * in-process model per scope that follows what the deployment showed. Implies `soleClient`.
   */
  readonly shadow?: boolean;
  /** JSON bodies are validated up to this size (default 2 MiB); a larger one is noted, not held. */
  readonly jsonLimitBytes?: number;
  /**
   * The bytes all exchanges in flight together may keep for judging (default 8 MiB). Past it a body
   * passes on unjudged and its exchange notes "not judged: in-flight budget exhausted".
   */
  readonly maxJudgeBytes?: number;
  /** Exchanges, and violations, kept for the report (default 10,000 each); the counts cover them all. */
  readonly maxExchanges?: number;
  /**
   * When given, the session is also recorded as HAR 1.2 in this file (bodies as side files beside it),
   * created private (0600). A symlink there, or a folder that cannot be written, is a `ProxySetupError`.
   */
  readonly har?: string;
  /**
   * When given, `close()` also writes a calibration profile here (docs/calibration.md): what the
   * traffic showed of the points the spec leaves open, read only where an exchange leaves no doubt.
   * Written private (0600) through a temporary file; a folder or symlink there is a `ProxySetupError`.
   */
  readonly writeProfile?: string;
  /**
   * How long the upstream may stay silent, in ms (default 120,000; 0: forever): counted from the
   * request's end to the answer's head, and between two chunks of the answer. Silent before the head,
   * the client gets a 504 envelope; silent mid-answer, the client's answer is cut.
   */
  readonly upstreamTimeoutMs?: number;
  /**
   * Upstream errors (the upstream unreachable, silent past the timeout, or breaking an answer off) the
   * session may have and still pass (default 0). A session whose every exchange was one never passes.
   */
  readonly maxUpstreamErrors?: number;
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
  /**
   * Opens one connection to the upstream (no request is sent) and resolves with why it could not be
   * opened within `timeoutMs` (default 3,000), or undefined when it could: a warning at start, before
   * every request is answered 502.
   */
  probeUpstream(timeoutMs?: number): Promise<string | undefined>;
  /** Stops listening, cuts open connections, and writes the reports when `reportDir` was given. */
  close(): Promise<ProxyClosed>;
}

/** What `close()` resolves with: the session, the files written, and the profile with `writeProfile`. */
export interface ProxyClosed {
  readonly report: ProxyReport;
  readonly files: readonly string[];
  readonly profile?: Profile;
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
  const upstream = upstreamLink(options.upstream);
  for (const [name, header] of Object.entries(options.pcmHeaders ?? {})) {
    const problem = dataHeaderProblem(String(header));
    if (problem) throw new ProxySetupError(`pcmHeaders.${name}: ${problem}`);
  }
  if (options.reportDir) ensureWritableDir(options.reportDir, 'the report folder');
  const profileProblem =
    options.writeProfile === undefined ? undefined : profilePathProblem(options.writeProfile);
  if (profileProblem) throw new ProxySetupError(`the profile file (--write-profile): ${profileProblem}`);
  const recorder = options.writeProfile === undefined ? undefined : createProfileRecorder();
  const har = options.har ? HarRecorder.create(options.har, upstream.url) : undefined;
  const shadow = options.shadow ? new Shadow(options.keys) : undefined;
  const session = new ProxySession({
    upstream: upstream.url,
    observer: {
      jsonLimitBytes: options.jsonLimitBytes ?? 2 * 1024 * 1024,
      budget: new JudgeBudget(options.maxJudgeBytes),
      judge: judgeOf(options),
      ...(recorder ? { recorder } : {}),
    },
    maxExchanges: options.maxExchanges ?? 10_000,
    maxUpstreamErrors: options.maxUpstreamErrors ?? 0,
    har,
    ...(options.onViolation ? { onViolation: options.onViolation } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    ...(shadow ? { shadow } : {}),
  });
  const context = {
    upstream,
    timeoutMs: options.upstreamTimeoutMs ?? 120_000,
    host: options.host ?? '127.0.0.1',
    session,
  };
  let server: http.Server;
  try {
    server = await listen(options, (req, res) => passThrough(context, req, res));
  } catch (error) {
    await har?.discard();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: ReturnType<ProxyServer['close']> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    upstream: upstream.url.href,
    report: () => session.report(),
    probeUpstream: (timeoutMs = 3000) => upstream.probe(timeoutMs),
    close() {
      const profile = recorder && options.writeProfile ? { recorder, file: options.writeProfile } : undefined;
      closing ??= stop(server, upstream)
        .then(() => shadow?.close())
        .then(() => writeReports(session.report(), options.reportDir, har, profile));
      return closing;
    },
  };
}

/** The session's one judge: every exchange, its request and the session so far (judge/). */
function judgeOf(options: ProxyOptions): Judge {
  return createJudge({
    ...(options.pcmHeaders ? { pcmHeaders: options.pcmHeaders } : {}),
    ...(options.keys ? { keys: options.keys } : {}),
    completeView: options.soleClient === true || options.shadow === true,
  });
}

/** The server, listening; a malformed request line or head gets Node's 400 and the proxy stays up. */
async function listen(options: ProxyOptions, handle: http.RequestListener): Promise<http.Server> {
  const server = http.createServer({ noDelay: true, keepAlive: true }, handle);
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
  return server;
}

/** Stops listening; exchanges in flight get a moment to end, then are cut (recorded as cut by the client). */
async function stop(server: http.Server, upstream: UpstreamLink): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), 1000);
  await closed;
  clearTimeout(grace);
  upstream.close();
}

/**
 * Writes the reports (when there is a folder for them) and the HAR; resolves with the files written,
 * or rejects with a `ReportWriteError` naming what could not be written (the rest is still tried).
 */
async function writeReports(
  report: ProxyReport,
  reportDir: string | undefined,
  har: HarRecorder | undefined,
  profiled: { readonly recorder: ProfileRecorder; readonly file: string } | undefined,
): Promise<ProxyClosed> {
  const files: string[] = [];
  const failures: string[] = [];
  const why = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  if (reportDir)
    await writeProxyReports(report, reportDir).then(
      (written) => files.push(...written),
      (error) => failures.push(`the reports in ${reportDir} (${why(error)})`),
    );
  if (har)
    await har.close().then(
      (written) => files.push(written),
      (error) => failures.push(`the HAR ${har.path} (${why(error)})`),
    );
  const profile = profiled?.recorder.profile({
    by: 'proxy',
    target: `${new URL(report.upstream).origin}${new URL(report.upstream).pathname}`.replace(/\/+$/, ''),
    at: report.startedAt,
  });
  if (profiled && profile)
    try {
      writeProfileFile(profiled.file, profile);
      files.push(profiled.file);
    } catch (error) {
      failures.push(`the profile ${profiled.file} (${why(error)})`);
    }
  if (failures.length > 0)
    throw new ReportWriteError(`could not write ${failures.join(' and ')}`, report, files);
  return { report, files, ...(profile ? { profile } : {}) };
}
