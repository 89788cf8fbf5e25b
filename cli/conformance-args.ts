/**
 * The command line and the VOICE_KIT_* variables of `voice-kit conformance`, read strictly: a typo
 * must end in exit 2, never in a green run that quietly tested the embedded mock instead of staging.
 * node:util parseArgs (not cac) reads the tokens, since it keeps every value as typed: cac turns
 * `--api-key 0123` into 123, `--api-key ""` into 0 and `--api-key -abc` into the flags -a, -b and -c.
 */

import type { RunOptions } from '../conformance/index.js';
import { didYouMean } from '../conformance/setup/nearest.js';
import { baseUrlProblem } from '../conformance/setup/options-check.js';
import { type ExtraKeyName, type IncludeName, includeNames } from '../conformance/types.js';
import { flagSpecs, knownVariables } from './conformance-flags.js';
import { readFlags } from './conformance-tokens.js';

type Env = Readonly<Record<string, string | undefined>>;

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
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Unknown VOICE_KIT_* variables: `VOICE_KIT_BASEURL` must not silently leave the base URL unset. */
function envProblems(env: Env): string[] {
  return Object.keys(env)
    .filter((k) => /^voice_kit_/i.test(k) && !knownVariables.includes(k))
    .map((k) => `unknown variable ${k}${didYouMean(k, knownVariables)}; known: ${knownVariables.join(', ')}`);
}

/**
 * Read argv and env into the options of a run, or throw a UsageError listing every problem.
 *
 * @example
 * parseCliArgs(['--base-url', url, '--api-key', key], process.env).options; // { baseUrl: url, apiKey: key, ... }
 */
export function parseCliArgs(argv: readonly string[], env: Env): CliRequest {
  const problems: string[] = [];
  const flags = readFlags(argv, problems);
  const help = flags.has('help');
  if (help) return { help, list: false, options: {}, reportDir: '', sourceOf: {} };
  problems.push(...envProblems(env));
  const get = (name: string): Given | undefined => {
    const spec = flagSpecs.find((f) => f.name === name);
    const fromFlag = flags.get(name);
    if (fromFlag) return { value: fromFlag.join(','), source: `--${name}` };
    const fromEnv = spec?.env ? env[spec.env] : undefined;
    return fromEnv === undefined || !spec?.env ? undefined : { value: fromEnv, source: spec.env };
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
  if (problems.length > 0) throw new UsageError(problems);

  const reference = str('reference-audio');
  const referenceUrl = str('reference-url');
  if (referenceUrl && baseUrlProblem(referenceUrl.value))
    throw new UsageError([`${referenceUrl.source} ${baseUrlProblem(referenceUrl.value)}`]);
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
  };
  const sourceOf = Object.fromEntries(
    (
      [
        ['baseUrl', 'base-url'],
        ['only', 'only'],
        ['referenceAudio', 'reference-audio'],
      ] as const
    ).map(([option, flag]) => [option, get(flag)?.source ?? `--${flag}`]),
  );
  return {
    help,
    list: flags.has('list'),
    options,
    reportDir: str('report-dir')?.value ?? 'reports/conformance',
    sourceOf,
  };
}

/** --allow-billable, or VOICE_KIT_ALLOW_BILLABLE as 1/0 (true/false, yes/no, on/off); anything else is refused. */
function billable(g: Given | undefined, problems: string[]): boolean {
  if (!g) return false;
  if (g.source.startsWith('--') || /^(1|true|yes|on)$/i.test(g.value.trim())) return true;
  if (/^(0|false|no|off|)$/i.test(g.value.trim())) return false;
  problems.push(`${g.source}=${JSON.stringify(g.value)} is neither 1 nor 0`);
  return false;
}

/** Exactly three header names, in the order sample rate, channels, bit depth. */
function pcmHeaders(g: Given | undefined, problems: string[]): RunOptions['pcmHeaders'] {
  if (!g) return undefined;
  const names = g.value.split(',').map((s) => s.trim());
  if (names.length !== 3 || !names.every((n) => headerName.test(n))) {
    problems.push(
      `${g.source} needs exactly three comma-separated header names (sample rate, channels, bit depth), got ${JSON.stringify(g.value)}`,
    );
    return undefined;
  }
  const [sampleRate, channels, bitDepth] = names as [string, string, string];
  return { sampleRate, channels, bitDepth };
}
