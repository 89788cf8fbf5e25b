/**
 * `voice-kit proxy`: starts the validating proxy, prints each violation as it happens, and on SIGINT or
 * SIGTERM writes the reports, prints a summary and resolves with the exit code: 0, 1 when a must-rule
 * was violated (or it could not start), 2 for a usage error (a flag, a report folder or HAR path it
 * cannot use, an upstream ending in /v1), 3 when the reports could not be written, 4 when upstream
 * errors passed --max-upstream-errors or every exchange was one, 130 when stopped again a second or
 * more after the first stop (the reports of what was judged are written first). Loaded only for this
 * command.
 */

import { pathShown } from '../common/path-shown.js';
import { FileTooLargeError, readTextCappedSync } from '../common/read-capped.js';
import { versionPrefixProblem } from '../common/version-prefix.js';
import {
  type ProxyOptions,
  type ProxyReport,
  type ProxyServer,
  ProxySetupError,
  ReportWriteError,
  startProxy,
  upstreamFailure,
  violationLine,
} from '../proxy/index.js';

/** `1 exchange`, `2 exchanges`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

import { proxyJunit, proxyMarkdown } from '../proxy/reports.js';
import { pcmHeadersFlag } from './pcm-headers.js';
import { usage } from './program.js';
import { onStopSignals, writeNow } from './stop-signals.js';

type Write = (line: string) => void;

/** The most a `--keys` file may hold (a few hundred keys fit in a fraction of it). */
const keysFileMaxBytes = 4 * 1024 * 1024;

/** `--keys FILE`: `{ "<api key>": { "organization": …, "project": …, "environment": … } }`, checked. */
function readKeys(file: string, problems: string[]): ProxyOptions['keys'] {
  let parsed: unknown;
  try {
    // Read with a cap: `/dev/zero` or a pipe claims no size and would be read until memory ran out.
    parsed = JSON.parse(readTextCappedSync(file, keysFileMaxBytes));
  } catch (e) {
    problems.push(
      e instanceof FileTooLargeError
        ? `--keys: ${file} holds more than ${keysFileMaxBytes} bytes`
        : `--keys: cannot read ${pathShown(file)} as JSON: ${(e as Error).message}`,
    );
    return undefined;
  }
  const fields = ['organization', 'project', 'environment'] as const;
  const entries =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.entries(parsed) : [];
  const bad = entries.filter(
    ([, v]) => !fields.every((f) => typeof (v as Record<string, unknown>)?.[f] === 'string'),
  );
  if (entries.length === 0 || bad.length > 0) {
    // The key itself is never printed: only how many entries are wrong.
    problems.push(
      `--keys: ${file} must map each API key to { organization, project, environment } strings (${bad.length || 'no'} entries wrong)`,
    );
    return undefined;
  }
  return Object.fromEntries(entries) as ProxyOptions['keys'];
}

/** Runs until SIGINT/SIGTERM; resolves with the exit code. */
export async function proxyCommand(
  flags: Readonly<Record<string, unknown>>,
  write: Write,
  fail: Write,
): Promise<number> {
  const problems: string[] = [];
  const upstream = typeof flags.upstream === 'string' ? flags.upstream : '';
  if (!upstream) problems.push('--upstream is required: the URL of the deployment to pass traffic to');
  else if (!URL.canParse(upstream) || !/^https?:$/.test(new URL(upstream).protocol))
    problems.push(`--upstream: expected an http:// or https:// URL, got ${JSON.stringify(upstream)}`);
  else if (versionPrefixProblem(upstream)) problems.push(`--upstream ${versionPrefixProblem(upstream)}`);
  const port = Number(flags.port ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || String(flags.port ?? '4020').trim() === '')
    problems.push(`--port: expected an integer from 0 to 65535, got "${flags.port}"`);
  let pcmHeaders: ProxyOptions['pcmHeaders'];
  if (flags.pcmHeaders !== undefined) {
    const read = pcmHeadersFlag('--pcm-headers', String(flags.pcmHeaders));
    if ('problem' in read) problems.push(read.problem);
    else pcmHeaders = read.names;
  }
  const timeoutGiven = String(flags.upstreamTimeout ?? '120000').trim();
  const upstreamTimeoutMs = Number(timeoutGiven);
  if (!/^\d+$/.test(timeoutGiven) || !Number.isSafeInteger(upstreamTimeoutMs))
    problems.push(
      `--upstream-timeout: expected a whole number of ms (0: none), got "${flags.upstreamTimeout}"`,
    );
  const keys = typeof flags.keys === 'string' ? readKeys(flags.keys, problems) : undefined;
  const judgeGiven = String(flags.maxJudgeBytes ?? '8388608').trim();
  const maxJudgeBytes = Number(judgeGiven);
  if (!/^\d+$/.test(judgeGiven) || !Number.isSafeInteger(maxJudgeBytes))
    problems.push(`--max-judge-bytes: expected a whole number of bytes, got "${flags.maxJudgeBytes}"`);
  const errorsGiven = String(flags.maxUpstreamErrors ?? '0').trim();
  const maxUpstreamErrors = Number(errorsGiven);
  if (!/^\d+$/.test(errorsGiven) || !Number.isSafeInteger(maxUpstreamErrors))
    problems.push(
      `--max-upstream-errors: expected a whole number of errors, got "${flags.maxUpstreamErrors}"`,
    );
  if (problems.length > 0) return usage(fail, problems, 'proxy');
  const host = String(flags.host ?? '127.0.0.1');
  const reportDir = String(flags.reportDir ?? 'reports/proxy');
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  try {
    proxy = await startProxy({
      upstream,
      port,
      host,
      reportDir,
      upstreamTimeoutMs,
      maxJudgeBytes,
      maxUpstreamErrors,
      ...(typeof flags.har === 'string' && flags.har ? { har: flags.har } : {}),
      ...(typeof flags.writeProfile === 'string' && flags.writeProfile
        ? { writeProfile: flags.writeProfile }
        : {}),
      ...(pcmHeaders ? { pcmHeaders } : {}),
      ...(keys ? { keys } : {}),
      ...(flags.soleClient === true || flags.shadow === true ? { soleClient: true } : {}),
      ...(flags.shadow === true ? { shadow: true } : {}),
      onViolation: (v) => fail(`violation ${violationLine(v)}`),
    });
  } catch (error) {
    return cannotStart(error, port, host, fail);
  }
  write(`voice-kit proxy listening on ${proxy.url}, passing to ${proxy.upstream} (reports: ${reportDir})`);
  void proxy.probeUpstream().then((problem) => {
    if (problem)
      fail(
        `voice-kit proxy: warning: cannot connect to the upstream ${proxy.upstream} (${problem}): every request will be answered 502 and the session will fail (exit 4)`,
      );
  });
  return untilStopped(proxy, reportDir, write, fail);
}

/** Why the proxy did not start, in one line: a folder or HAR path it cannot use is a usage error (2). */
function cannotStart(error: unknown, port: number, host: string, fail: Write): number {
  if (error instanceof ProxySetupError) {
    fail(`voice-kit proxy: ${error.message}`);
    return 2;
  }
  const code = (error as NodeJS.ErrnoException).code;
  fail(
    code === 'EADDRINUSE'
      ? `voice-kit proxy: port ${port} on ${host} is in use; pick another with --port N`
      : `voice-kit proxy: cannot start: ${(error as Error).message}`,
  );
  return 1;
}

/**
 * Runs until SIGINT or SIGTERM (stop-signals.ts), then closes the proxy, writes the reports and prints
 * the summary; resolves with 0, 1 (a must-rule violated), 4 (the upstream failed) or 3 (the reports
 * could not be written). A repeat of the signal within a second is the same stop; a later one writes
 * the reports of what was judged so far at once and exits 130: stopping always stops, and never loses
 * the session.
 */
function untilStopped(proxy: ProxyServer, reportDir: string, write: Write, fail: Write): Promise<number> {
  return new Promise<number>((resolve) => {
    const stopListening = onStopSignals({
      finish: () => {
        proxy.close().then(
          ({ report, files, profile }) => {
            summary(report, write);
            write(`reports: ${files.join(', ')}`);
            if (profile) {
              const n = Object.keys(profile.points).length;
              write(
                `profile: ${count(n, 'point')} written to ${files.at(-1)} (${profile.unsettled?.length ?? 0} unsettled)`,
              );
            }
            stopListening();
            resolve(exitCode(report));
          },
          (error: unknown) => {
            if (error instanceof ReportWriteError) summary(error.report, write);
            fail(`voice-kit proxy: ${error instanceof Error ? error.message : String(error)}`);
            stopListening();
            resolve(3);
          },
        );
      },
      now: () => {
        const report = proxy.report();
        const files = writeNow(reportDir, [
          ['proxy.json', `${JSON.stringify(report, null, 2)}\n`],
          ['proxy.junit.xml', proxyJunit(report)],
          ['proxy.md', proxyMarkdown(report)],
        ]);
        summary(report, write);
        fail(
          `voice-kit proxy: stopped again: ${files.length > 0 ? `wrote ${files.join(', ')} with` : 'could not write the reports of'} the ${count(report.counts.exchanges, 'exchange')} judged so far; exiting`,
        );
      },
    });
  });
}

/** 0 when the session passed, 1 when a must-rule was violated, else 4 when the upstream failed it. */
function exitCode(report: ProxyReport): number {
  if (report.ok) return 0;
  return report.counts.must > 0 ? 1 : 4;
}

/** The session's summary line, why the upstream failed it, and its violations by rule. */
function summary(report: ProxyReport, write: Write): void {
  const c = report.counts;
  write(
    `voice-kit proxy: ${count(c.exchanges, 'exchange')}, ${count(c.violations, 'violation')} (${c.must} must, ${c.should} should), ${count(c.upstreamErrors, 'upstream error')}: ${report.ok ? 'PASS' : 'FAIL'}`,
  );
  if (report.upstreamFailed) write(`voice-kit proxy: FAIL: ${upstreamFailure(report)}`);
  const byRule = new Map<string, number>();
  for (const v of report.violations)
    byRule.set(`${v.severity} ${v.rule}`, (byRule.get(`${v.severity} ${v.rule}`) ?? 0) + 1);
  for (const [rule, n] of byRule) write(`  ${n} × ${rule}`);
}
