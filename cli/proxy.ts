/**
 * `voice-kit proxy`: starts the validating proxy, prints each violation as it happens, and on SIGINT or
 * SIGTERM writes the reports, prints a summary and resolves with the exit code: 0, 1 when a must-rule
 * was violated (or it could not start), 2 for a usage error (a flag, a report folder or HAR path it
 * cannot use), 3 when the reports could not be written. Loaded only for this command.
 */
import { readFileSync } from 'node:fs';
import {
  type ProxyOptions,
  type ProxyReport,
  type ProxyServer,
  ProxySetupError,
  ReportWriteError,
  startProxy,
  violationLine,
} from '../proxy/index.js';

/** `1 exchange`, `2 exchanges`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

import { usage } from './program.js';

type Write = (line: string) => void;

/** `--keys FILE`: `{ "<api key>": { "organization": …, "project": …, "environment": … } }`, checked. */
function readKeys(file: string, problems: string[]): ProxyOptions['keys'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(`--keys: cannot read ${file} as JSON: ${(e as Error).message}`);
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
  const port = Number(flags.port ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || String(flags.port ?? '4020').trim() === '')
    problems.push(`--port: expected an integer from 0 to 65535, got "${flags.port}"`);
  let pcmHeaders: ProxyOptions['pcmHeaders'];
  if (flags.pcmHeaders !== undefined) {
    const names = String(flags.pcmHeaders)
      .split(',')
      .map((s) => s.trim());
    const [sampleRate, channels, bitDepth] = names;
    if (names.length !== 3 || !sampleRate || !channels || !bitDepth)
      problems.push(
        `--pcm-headers: expected exactly three header names, got ${JSON.stringify(flags.pcmHeaders)}`,
      );
    else pcmHeaders = { sampleRate, channels, bitDepth };
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
  return untilStopped(proxy, write, fail);
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
 * Runs until SIGINT or SIGTERM, then closes the proxy, writes the reports and prints the summary;
 * resolves with 0, 1 (a must-rule violated) or 3 (the reports could not be written). A second signal
 * while the reports are written exits at once, with 3: stopping always stops.
 */
function untilStopped(proxy: ProxyServer, write: Write, fail: Write): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      const again = () => {
        fail('voice-kit proxy: stopped again before the reports were written; exiting without them');
        process.exit(3);
      };
      process.once('SIGINT', again);
      process.once('SIGTERM', again);
      const done = (code: number) => {
        process.off('SIGINT', again);
        process.off('SIGTERM', again);
        resolve(code);
      };
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
          done(report.ok ? 0 : 1);
        },
        (error: unknown) => {
          if (error instanceof ReportWriteError) summary(error.report, write);
          fail(`voice-kit proxy: ${error instanceof Error ? error.message : String(error)}`);
          done(3);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The session's summary line and its violations by rule. */
function summary(report: ProxyReport, write: Write): void {
  const c = report.counts;
  write(
    `voice-kit proxy: ${count(c.exchanges, 'exchange')}, ${count(c.violations, 'violation')} (${c.must} must, ${c.should} should), ${count(c.upstreamErrors, 'upstream error')}: ${report.ok ? 'PASS' : 'FAIL'}`,
  );
  const byRule = new Map<string, number>();
  for (const v of report.violations)
    byRule.set(`${v.severity} ${v.rule}`, (byRule.get(`${v.severity} ${v.rule}`) ?? 0) + 1);
  for (const [rule, n] of byRule) write(`  ${n} × ${rule}`);
}
