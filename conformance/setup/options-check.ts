/**
 * Checks of runConformance's options that need no I/O, so a mistake throws before anything starts.
 * A JavaScript caller's typo (`baseURL`) would otherwise test the embedded mock and pass.
 */

import { didYouMean } from '../../common/did-you-mean.js';
import { dataHeaderProblem } from '../../common/header-names.js';
import { versionPrefixProblem } from '../../common/version-prefix.js';
import { type CaseInfo, type ExtraKeyName, includeNames } from '../types.js';
import { nearestIds, unmatchedPatterns } from './only-patterns.js';
import type { RunOptions } from './run-options.js';
import { ConformanceSetupError } from './setup-error.js';

// A Record, so that adding an option to RunOptions without listing it here fails to compile.
const optionNames: Record<keyof RunOptions, true> = {
  baseUrl: true,
  apiKey: true,
  keys: true,
  allowBillable: true,
  include: true,
  only: true,
  referenceAudio: true,
  referenceUrl: true,
  fetch: true,
  onProgress: true,
  pcmHeaders: true,
  targetIsMock: true,
  calibrate: true,
  httpTransport: true,
  now: true,
  runPrefix: true,
  cases: true,
  signal: true,
  requestTimeoutSeconds: true,
};
// `main` too: callers pass a whole RunKeys (the embedded mock's keys) as `keys`, and it wins over apiKey.
const keyNames: Record<ExtraKeyName | 'main', true> = {
  main: true,
  noClone: true,
  otherProject: true,
  otherEnv: true,
  otherOrg: true,
};

const unknownOf = (given: object, known: readonly string[]) =>
  Object.keys(given).filter((k) => !known.includes(k));

/**
 * A URL the suite sends requests to must be an http(s) URL; an empty one is a mistake (an unset CI
 * secret), not "no target".
 *
 * @example
 * httpUrlProblem('staging.example.com'); // 'is not an http(s) URL: ...'
 */
export function httpUrlProblem(url: string): string | undefined {
  if (url.trim() === '') return 'is empty: omit it to test the embedded mock';
  try {
    const { protocol } = new URL(url);
    if (protocol === 'http:' || protocol === 'https:') return undefined;
  } catch {
    // reported below
  }
  return `${JSON.stringify(url)} is not an http(s) URL (like https://voice.staging.example.com)`;
}

/**
 * A base URL is an http(s) URL that does not end in `/v1`: the cases' paths start with it, so such a
 * base would send every case to `/v1/v1/...`.
 *
 * @example
 * baseUrlProblem('http://127.0.0.1:4010/v1'); // 'ends in /v1, ... drop it: http://127.0.0.1:4010'
 */
export function baseUrlProblem(url: string): string | undefined {
  return httpUrlProblem(url) ?? versionPrefixProblem(url);
}

/**
 * Throws a ConformanceSetupError for the first mistake in `options`: an unknown option or key name, a
 * base URL that is empty or not http(s), a base URL without an API key, an unknown include group, or an
 * `only` pattern that selects no case of `cases`.
 */
export function checkOptions(options: RunOptions, cases: readonly CaseInfo[]): void {
  const known = Object.keys(optionNames);
  for (const name of unknownOf(options, known))
    throw new ConformanceSetupError(
      name,
      `is not an option of runConformance${didYouMean(name, known)}; options: ${known.join(', ')}`,
    );
  for (const name of unknownOf(options.keys ?? {}, Object.keys(keyNames)))
    throw new ConformanceSetupError(
      `keys.${name}`,
      `is not a key name${didYouMean(name, Object.keys(keyNames))}; known: ${Object.keys(keyNames).join(', ')}`,
    );
  if (options.baseUrl !== undefined) {
    const problem = baseUrlProblem(options.baseUrl);
    if (problem) throw new ConformanceSetupError('baseUrl', problem);
    if (!options.apiKey && !(options.keys as { main?: string } | undefined)?.main)
      throw new ConformanceSetupError('apiKey', 'is required with baseUrl');
  }
  const timeout = options.requestTimeoutSeconds;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && timeout <= 86_400))
    throw new ConformanceSetupError(
      'requestTimeoutSeconds',
      `must be a number of seconds above 0 (at most 86400), got ${String(timeout)}`,
    );
  if (options.referenceUrl !== undefined) {
    const problem = httpUrlProblem(options.referenceUrl);
    if (problem) throw new ConformanceSetupError('referenceUrl', problem);
  }
  for (const group of options.include ?? [])
    if (!includeNames.includes(group))
      throw new ConformanceSetupError(
        'include',
        `${JSON.stringify(group)} is not a group; groups: ${includeNames.join(', ')}`,
      );
  for (const [name, header] of Object.entries(options.pcmHeaders ?? {})) {
    const problem = typeof header === 'string' ? dataHeaderProblem(header) : 'is not a string';
    if (problem) throw new ConformanceSetupError(`pcmHeaders.${name}`, problem);
  }
  if (options.only !== undefined && !Array.isArray(options.only))
    throw new ConformanceSetupError('only', 'must be an array of patterns');
  for (const pattern of unmatchedPatterns(cases, options.only ?? [])) {
    const near = nearestIds(cases, pattern);
    throw new ConformanceSetupError(
      'only',
      `${JSON.stringify(pattern)} matches no case id${near.length > 0 ? ` (nearest: ${near.join(', ')})` : ''}; allCases lists every id`,
    );
  }
}
