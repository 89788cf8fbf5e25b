/**
 * `voice-kit conformance` / `npm run conformance`: the flags (read by program.ts) and the VOICE_KIT_*
 * variables become the options of a run; then the run and its reports, or --list. Exit 0 when every
 * must case passed, 1 when one failed, 2 on a usage error, 3 when the reports could not be written, 130
 * after Ctrl-C. A usage error is anything that would make a run test nothing or the wrong thing: a flag
 * or variable in error (here), a --report-dir it cannot write to (probed before the first case), and
 * runConformance's setup checks (the reference recording, the reachability of --base-url, its keys).
 */

import { didYouMean } from '../common/did-you-mean.js';
import {
  allCases,
  ConformanceSetupError,
  type ProfiledRunResult,
  type RunOptions,
  runConformance,
} from '../conformance/index.js';
import { junitReport } from '../conformance/reporters/junit.js';
import { markdownReport } from '../conformance/reporters/markdown.js';
import { fileErrorText, reportDirProblem } from '../conformance/reporters/report-dir.js';
import { terminalProgress, terminalSummary } from '../conformance/reporters/terminal.js';
import { writeReports } from '../conformance/reporters/write-reports.js';
import { countOutcomes } from '../conformance/run/runner.js';
import { matchesOnly, nearestIds, unmatchedPatterns } from '../conformance/setup/only-patterns.js';
import { baseUrlProblem, httpUrlProblem } from '../conformance/setup/options-check.js';
import {
  type CaseInfo,
  type CaseResult,
  type ExtraKeyName,
  type IncludeName,
  includeNames,
  type ProgressEvent,
  type RunResult,
} from '../conformance/types.js';
import { profilePathProblem, writeProfileFile } from '../profile/write-file.js';
import { reportsNotWritten } from './exit-codes.js';
import type { ExploreRequest } from './explore.js';
import { pcmHeadersFlag } from './pcm-headers.js';
import { type CommandLine, mockVariables, readCommandLine, usage, variableOf } from './program.js';
import { onStopSignals, writeNow } from './stop-signals.js';
import { kitVersion } from './version.js';

type Env = Readonly<Record<string, string | undefined>>;
type Write = (line: string) => void;

/** Every problem of a command line, reported together so one attempt fixes them all. */
export class UsageError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** What the command line asks for. */
export interface CliRequest {
  readonly help: boolean;
  readonly list: boolean;
  readonly options: RunOptions;
  readonly reportDir: string;
  /** --write-profile: the file the run's profile is written to. */
  readonly writeProfile?: string;
  /** --explore or --replay, with their budgets and seed. */
  readonly explore?: ExploreRequest;
  /** How the user named an option (`--only` or `VOICE_KIT_ONLY`), for messages about its value. */
  readonly sourceOf: Readonly<Record<string, string>>;
}

/** A value and where it came from. */
interface Given {
  readonly value: string;
  readonly source: string;
}

const extraKeys: readonly (readonly [string, ExtraKeyName])[] = [
  ['key-no-clone', 'noClone'],
  ['key-other-project', 'otherProject'],
  ['key-other-env', 'otherEnv'],
  ['key-other-org', 'otherOrg'],
];
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Read the flags of a command line and the variables of `env` into the options of a run, or throw a
 * UsageError listing every problem. --help wins over every problem.
 */
export function conformanceRequest(line: CommandLine, env: Env): CliRequest {
  if (line.help) return { help: true, list: false, options: {}, reportDir: '', sourceOf: {} };
  const problems = [...line.problems];
  // Unknown VOICE_KIT_* variables: `VOICE_KIT_BASEURL` must not silently leave the base URL unset.
  const variables = (line.command?.options ?? []).flatMap((o) => variableOf(kebab(o.name)) ?? []);
  const mockOnly: readonly string[] = Object.values(mockVariables);
  for (const k of Object.keys(env).filter(
    (k) => /^voice_kit_/i.test(k) && !variables.includes(k) && !mockOnly.includes(k),
  ))
    problems.push(`unknown variable ${k}${didYouMean(k, variables)}; known: ${variables.join(', ')}`);
  const get = (name: string): Given | undefined => {
    const flag = line.options[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
    if (flag !== undefined) return { value: [flag].flat().join(','), source: `--${name}` };
    const variable = variableOf(name);
    const fromEnv = variable ? env[variable] : undefined;
    return variable && fromEnv !== undefined ? { value: fromEnv, source: variable } : undefined;
  };
  // An empty key or path (an unset CI secret) counts as not given; an empty base URL does not.
  const str = (name: string) => {
    const g = get(name);
    return g && g.value.trim() !== '' ? g : undefined;
  };
  const list = (name: string) =>
    (get(name)?.value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  const baseUrl = get('base-url');
  const baseProblem = baseUrl ? baseUrlProblem(baseUrl.value) : undefined;
  if (baseUrl && baseProblem) problems.push(`${baseUrl.source} ${baseProblem}`);
  const apiKey = str('api-key');
  const keys = extraKeys.flatMap(([flag, name]) => {
    const g = str(flag);
    return g ? [[name, g] as const] : [];
  });
  const firstKey = apiKey ?? keys[0]?.[1];
  if (!baseUrl && firstKey)
    problems.push(
      `${firstKey.source} was given but no --base-url: pass --base-url (VOICE_KIT_BASE_URL) to test a deployment, or omit the keys to test the embedded mock`,
    );
  if (baseUrl && !baseProblem && !apiKey)
    problems.push(`--api-key (or VOICE_KIT_API_KEY) is required with ${baseUrl.source}`);

  const allowBillable = billable(get('allow-billable'), problems);
  const include = list('include');
  const unknownGroups = include.filter((i) => !includeNames.includes(i as IncludeName));
  if (unknownGroups.length > 0)
    problems.push(
      `unknown ${get('include')?.source ?? '--include'} group(s): ${unknownGroups.join(', ')}; groups: ${includeNames.join(', ')}`,
    );
  const pcm = pcmHeaders(str('pcm-headers'), problems);
  const timeout = requestTimeout(str('request-timeout'), problems);
  const explore = exploreRequest(get, str, allowBillable, problems);
  const writeProfile = str('write-profile');
  if (writeProfile && explore)
    problems.push(
      `${writeProfile.source} writes what the cases observed: it does not go with --explore or --replay`,
    );
  const profileProblem = writeProfile && profilePathProblem(writeProfile.value);
  if (writeProfile && profileProblem) problems.push(`${writeProfile.source}: ${profileProblem}`);
  if (problems.length > 0) throw new UsageError(problems);

  const reference = str('reference-audio');
  const referenceUrl = str('reference-url');
  if (referenceUrl && httpUrlProblem(referenceUrl.value))
    throw new UsageError([`${referenceUrl.source} ${httpUrlProblem(referenceUrl.value)}`]);
  const options: RunOptions = {
    ...(baseUrl ? { baseUrl: baseUrl.value } : {}),
    ...(apiKey ? { apiKey: apiKey.value } : {}),
    keys: Object.fromEntries(keys.map(([name, g]) => [name, g.value])),
    ...(allowBillable ? { allowBillable } : {}),
    ...(include.length > 0 ? { include: include as IncludeName[] } : {}),
    only: list('only'),
    ...(reference ? { referenceAudio: reference.value } : {}),
    ...(referenceUrl ? { referenceUrl: referenceUrl.value } : {}),
    ...(pcm ? { pcmHeaders: pcm } : {}),
    ...(timeout ? { requestTimeoutSeconds: timeout } : {}),
    // A profile is asked for: spend the probes it needs (the text-length bisection).
    ...(writeProfile ? { calibrate: true } : {}),
  };
  const sourceOf = Object.fromEntries([
    ...['baseUrl', 'apiKey', 'only', 'referenceAudio', 'reportDir'].map((o) => [
      o,
      get(kebab(o))?.source ?? `--${kebab(o)}`,
    ]),
    // The preflight names a refused extra key by its option (`keys.otherOrg`).
    ...keys.map(([name, g]) => [`keys.${name}`, g.source]),
  ]);
  const reportDir = str('report-dir')?.value ?? 'reports/conformance';
  return {
    help: false,
    list: line.options.list === true,
    options,
    reportDir,
    sourceOf,
    ...(writeProfile ? { writeProfile: writeProfile.value } : {}),
    ...(explore ? { explore } : {}),
  };
}

/**
 * The request of `voice-kit conformance <argv>` with `env`.
 *
 * @example
 * parseCliArgs(['--base-url', url, '--api-key', key], process.env).options; // { baseUrl: url, apiKey: key, ... }
 */
export function parseCliArgs(argv: readonly string[], env: Env): CliRequest {
  return conformanceRequest(readCommandLine(['conformance', ...argv]), env);
}

/** --allow-billable, or VOICE_KIT_ALLOW_BILLABLE as 1/0 (true/false, yes/no, on/off); anything else is refused. */
function billable(g: Given | undefined, problems: string[]): boolean {
  if (!g) return false;
  if (g.source.startsWith('--') || /^(1|true|yes|on)$/i.test(g.value.trim())) return true;
  if (/^(0|false|no|off|)$/i.test(g.value.trim())) return false;
  problems.push(`${g.source}=${JSON.stringify(g.value)} is neither 1 nor 0`);
  return false;
}

const exploreNumbers = [
  ['budget-chars', 'budgetChars'],
  ['budget-uploads', 'budgetUploads'],
  ['budget-creations', 'budgetCreations'],
  ['max-time', 'maxTimeSeconds'],
  ['seed', 'seed'],
] as const;

/** --explore and --replay with their numbers, or undefined for a scripted run; problems are pushed. */
function exploreRequest(
  get: (name: string) => Given | undefined,
  str: (name: string) => Given | undefined,
  allowBillable: boolean,
  problems: string[],
): ExploreRequest | undefined {
  const on = billable(get('explore'), problems);
  const replay = str('replay')?.value;
  const numbers: Record<string, number> = {};
  for (const [flag, name] of exploreNumbers) {
    const g = str(flag);
    if (!g) continue;
    const n = Number(g.value.trim());
    const whole = /^\d+$/.test(g.value.trim()) && n <= 2 ** 32 - 1;
    if (!whole || (flag === 'max-time' && n === 0))
      problems.push(
        `${g.source} needs a whole number${flag === 'max-time' ? ' of seconds above 0' : ' ≥ 0'}, got ${JSON.stringify(g.value)}`,
      );
    else if (!on && !replay)
      problems.push(`${g.source} is a flag of --explore; add --explore (or --replay FILE)`);
    else numbers[name] = n;
  }
  if ((numbers.budgetCreations ?? 0) > 0 && !allowBillable)
    problems.push('--budget-creations above 0 creates voices: it needs --allow-billable');
  if (!on && !replay) return undefined;
  return { replay, ...numbers };
}

/** --request-timeout: seconds above 0 (fractions allowed), at most a day. */
function requestTimeout(g: Given | undefined, problems: string[]): number | undefined {
  if (!g) return undefined;
  const n = Number(g.value.trim());
  if (/^\d+(\.\d+)?$/.test(g.value.trim()) && n > 0 && n <= 86_400) return n;
  problems.push(
    `${g.source} needs a number of seconds above 0 (at most 86400), got ${JSON.stringify(g.value)}`,
  );
  return undefined;
}

/** Exactly three header names that may carry data, in the order sample rate, channels, bit depth. */
function pcmHeaders(g: Given | undefined, problems: string[]): RunOptions['pcmHeaders'] {
  if (!g) return undefined;
  const read = pcmHeadersFlag(g.source, g.value);
  if ('problem' in read) {
    problems.push(read.problem);
    return undefined;
  }
  return read.names;
}

/** What a case needs beyond the main key, in the words of the flags that provide it. */
function needsText(c: CaseInfo): string {
  const n = c.needs ?? {};
  return [
    ...(n.billable ? ['--allow-billable'] : []),
    ...(n.keys ?? []).map((k) => `--key-${kebab(k)}`),
    ...(n.include ?? []).map((i) => `--include ${i}`),
    ...(n.mockOnly ? ['embedded mock only'] : []),
  ].join(', ');
}

/**
 * One line per case the patterns select: id, section, severity, title, and what it needs.
 *
 * @example
 * caseList(allCases, ['upload.extension.*']); // ['upload.extension.flac-refused  §4.1  must  ...', ...]
 */
export function caseList(cases: readonly CaseInfo[], only: readonly string[]): string[] {
  const chosen = cases.filter((c) => matchesOnly(c.id, only));
  const idWidth = Math.max(...chosen.map((c) => c.id.length));
  const sectionWidth = Math.max(...chosen.map((c) => c.section.length));
  return chosen.map((c) => {
    const needs = needsText(c);
    return `${c.id.padEnd(idWidth)}  ${c.section.padEnd(sectionWidth)}  ${c.severity.padEnd(7)}  ${c.title}${needs ? ` [needs ${needs}]` : ''}`;
  });
}

/** A sentence for every pattern that selects no case, with the nearest ids and how to see them all. */
function onlyProblems(only: readonly string[], source: string): string[] {
  return unmatchedPatterns(allCases, only).map((p) => {
    const near = nearestIds(allCases, p);
    return `${source} ${JSON.stringify(p)} matches no case id${near.length > 0 ? ` (nearest: ${near.join(', ')})` : ''}; voice-kit conformance --list prints every id`;
  });
}

/**
 * Run the conformance command of a command line; resolves with the exit code. Progress and errors go
 * to `err` (stderr), the --list to `out` (stdout), so `--list | grep` works.
 */
export async function conformanceCommand(
  line: CommandLine,
  env: Env,
  err: Write,
  out: Write,
): Promise<number> {
  let request: CliRequest;
  try {
    request = conformanceRequest(line, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(err, e.problems, 'conformance');
  }
  const only = request.options.only ?? [];
  const unmatched = onlyProblems(only, request.sourceOf.only ?? '--only');
  if (unmatched.length > 0) return usage(err, unmatched, 'conformance');
  if (request.list) {
    const lines = caseList(allCases, only);
    for (const l of lines) out(l);
    err(`${lines.length} cases`);
    return 0;
  }
  // Imported only for --explore and --replay: the explorer is a chunk of its own in the bin's bundle.
  if (request.explore) return (await import('./explore.js')).explore(request, request.explore, err);
  return run(request, err);
}

/** Writes the run's profile and says so in one line; false (and why) when it could not be written. */
function writeProfile(result: ProfiledRunResult, file: string, write: Write): boolean {
  const profile = { ...result.profile, observed: { ...result.profile.observed, kit: kitVersion() } };
  try {
    writeProfileFile(file, profile);
  } catch (e) {
    write(`error: the profile could not be written to ${file}: ${fileErrorText(e)}`);
    return false;
  }
  const n = Object.keys(profile.points).length;
  write(
    `profile: ${n} point${n === 1 ? '' : 's'} written to ${file} (${profile.unsettled?.length ?? 0} unsettled)`,
  );
  return true;
}

async function run(request: CliRequest, write: Write): Promise<number> {
  const dirProblem = await reportDirProblem(request.reportDir);
  if (dirProblem !== undefined) {
    // One line, before the first (possibly billable) case.
    const source = request.sourceOf.reportDir ?? '--report-dir';
    write(`error: ${source} ${request.reportDir}: reports cannot be written there: ${dirProblem}`);
    return 2;
  }
  const controller = new AbortController();
  const soFar = new SoFar(terminalProgress(write));
  const stopListening = onStopSignals({
    finish: () => {
      write(
        'interrupted: finishing the current case, then deleting the voices of this run (stop again a second later to quit now)',
      );
      controller.abort();
    },
    now: () => {
      const partial = soFar.result();
      const files = writeNow(request.reportDir, [
        ['conformance.json', `${JSON.stringify(partial, null, 2)}\n`],
        ['conformance.junit.xml', junitReport(partial)],
        ['conformance.md', markdownReport(partial)],
      ]);
      write(
        `stopped again: ${files.length > 0 ? `wrote ${files.join(', ')} with` : 'could not write the reports of'} the ${partial.results.length} cases judged so far; voices of this run (prefix ${partial.runPrefix}) may remain; exiting`,
      );
    },
  });
  try {
    const result = await runConformance({
      ...request.options,
      signal: controller.signal,
      onProgress: soFar.progress,
    });
    write(terminalSummary(result));
    try {
      write(`reports: ${(await writeReports(result, request.reportDir)).join(', ')}`);
    } catch (e) {
      write(`error: reports could not be written to ${request.reportDir}: ${fileErrorText(e)}`);
      return reportsNotWritten;
    }
    if (request.writeProfile && !writeProfile(result, request.writeProfile, write)) return reportsNotWritten;
    if (result.aborted) return 130;
    return result.ok ? 0 : 1;
  } catch (e) {
    // Raised before any case ran: name the flag (or variable) the user wrote, not the option.
    if (!(e instanceof ConformanceSetupError)) throw e;
    return usage(
      write,
      [`${request.sourceOf[e.option] ?? `--${kebab(e.option)}`} ${e.detail}`],
      'conformance',
    );
  } finally {
    stopListening();
  }
}

/** The run as far as its progress told: what a stop "now" writes (no cleanup ran, no billing known). */
class SoFar {
  private start: Extract<ProgressEvent, { type: 'start' }> | undefined;
  private readonly results: CaseResult[] = [];
  private readonly startedAt = new Date();

  constructor(private readonly terminal: (event: ProgressEvent) => void) {}

  readonly progress = (event: ProgressEvent): void => {
    if (event.type === 'start') this.start = event;
    if (event.type === 'case-end') this.results.push(event.result);
    this.terminal(event);
  };

  result(): RunResult {
    const results = [...this.results];
    return {
      ok: false,
      aborted: true,
      baseUrl: this.start?.baseUrl ?? '',
      embeddedMock: this.start?.embeddedMock ?? false,
      targetIsMock: this.start?.targetIsMock ?? false,
      runPrefix: this.start?.runPrefix ?? '',
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      results,
      counts: countOutcomes(results),
      billing: {
        remainingFreeCloneCountBefore: null,
        remainingFreeCloneCountAfter: null,
        voicesCreated: 0,
        uploads: 0,
        voicesDeletedByCases: 0,
        voicesDeleted: 0,
        voicesRemaining: 0,
        cleanupFailures: ['stopped before the cleanup: voices this run created may remain'],
      },
    };
  }
}
