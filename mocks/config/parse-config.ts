import { didYouMean } from '../../common/did-you-mean.js';
import { dataHeaderProblem } from '../../common/header-names.js';
import type { AudioFormat } from '../../openapi/contract.js';
import { audioMediaTypes } from '../../openapi/contract.js';
import { defaultConfig } from './defaults.js';
import type { Capabilities, KeyConfig, MockConfig } from './types.js';

/** A config the mock refuses; `problems` name each bad field by its path (`config.keys[2].organization`). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid mock config:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Problems = string[];
type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nonEmptyString(value: unknown, path: string, problems: Problems): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  problems.push(`${path}: expected a non-empty string`);
  return undefined;
}

/** A header the mock writes data in (a PCM header): a valid name, and none HTTP gives a meaning. */
function dataHeader(value: unknown, path: string, problems: Problems): string | undefined {
  const name = nonEmptyString(value, path, problems);
  if (name === undefined) return undefined;
  const problem = dataHeaderProblem(name);
  if (problem === undefined) return name;
  problems.push(`${path}: ${problem}`);
  return undefined;
}

function number(
  value: unknown,
  path: string,
  problems: Problems,
  min: number,
  integer = false,
): number | undefined {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min;
  if (ok && (!integer || Number.isInteger(value))) return value;
  problems.push(`${path}: expected ${integer ? 'an integer' : 'a number'} >= ${min}`);
  return undefined;
}

function stringList(
  value: unknown,
  path: string,
  problems: Problems,
  allowEmpty = false,
): string[] | undefined {
  if (!Array.isArray(value) || (!allowEmpty && value.length === 0)) {
    problems.push(`${path}: expected ${allowEmpty ? 'an' : 'a non-empty'} array of strings`);
    return undefined;
  }
  const items = value.map((item, i) => nonEmptyString(item, `${path}[${i}]`, problems));
  return items.every((item) => item !== undefined) ? (items as string[]) : undefined;
}

function formatList(value: unknown, path: string, problems: Problems): AudioFormat[] | undefined {
  const list = stringList(value, path, problems);
  const unknown = list?.filter((format) => !(format in audioMediaTypes)) ?? [];
  if (unknown.length > 0)
    problems.push(`${path}: unknown format ${unknown.join(', ')}; known: wav, pcm, mp3`);
  return unknown.length === 0 ? (list as AudioFormat[] | undefined) : undefined;
}

function capabilities(value: unknown, path: string, problems: Problems): Capabilities {
  const all = { tts: true, upload: true, voiceCloning: true };
  if (value === undefined) return all;
  if (!isObject(value)) {
    problems.push(`${path}: expected an object like {"tts": true, "upload": true, "voiceCloning": false}`);
    return all;
  }
  for (const [name, flag] of Object.entries(value)) {
    if (!(name in all))
      problems.push(`${path}.${name}: unknown capability; known: tts, upload, voiceCloning`);
    else if (typeof flag !== 'boolean') problems.push(`${path}.${name}: expected true or false`);
  }
  return { ...all, ...(value as Partial<Capabilities>) };
}

function keyEntry(value: unknown, path: string, problems: Problems): KeyConfig | undefined {
  if (!isObject(value)) {
    problems.push(`${path}: expected an object with key, user, organization, project, environment`);
    return undefined;
  }
  const field = (name: string) => nonEmptyString(value[name], `${path}.${name}`, problems);
  const [key, user, organization, project, environment] = [
    field('key'),
    field('user'),
    field('organization'),
    field('project'),
    field('environment'),
  ];
  const account = value.account === undefined ? organization : field('account');
  const caps = capabilities(value.capabilities, `${path}.capabilities`, problems);
  if (!key || !user || !organization || !project || !environment || !account) return undefined;
  return { key, user, organization, project, environment, account, capabilities: caps };
}

function keys(value: unknown, problems: Problems): KeyConfig[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push('config.keys: expected a non-empty array of key objects');
    return [];
  }
  const entries = value.map((entry, i) => keyEntry(entry, `config.keys[${i}]`, problems));
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (entry && seen.has(entry.key)) problems.push(`config.keys[${i}].key: duplicate key "${entry.key}"`);
    if (entry) seen.add(entry.key);
  });
  return entries.filter((entry): entry is KeyConfig => entry !== undefined);
}

/**
 * The fields a config file may hold beyond the service's config: the Node server reads them
 * (mocks/node/load-config.ts) before the rest comes here. Listed so that "known:" names every field a
 * file may hold, and one table (`checks` below, plus these) cannot drift from it.
 */
export const serverFields: readonly string[] = ['stateDir', 'stateUrl', 'profile'];

/** `config.maxTextLenght: unknown field (did you mean maxTextLength?); known: …`. */
function unknownField(path: string, name: string, known: readonly string[]): string {
  return `${path}: unknown field${didYouMean(name, known)}; known: ${known.join(', ')}`;
}

function section<T extends object>(
  value: unknown,
  path: string,
  defaults: T,
  problems: Problems,
  check: (name: string, item: unknown, itemPath: string) => unknown,
): T {
  if (value === undefined) return defaults;
  if (!isObject(value)) {
    problems.push(`${path}: expected an object`);
    return defaults;
  }
  const result: Obj = { ...(defaults as Obj) };
  for (const [name, item] of Object.entries(value)) {
    if (!(name in defaults)) problems.push(unknownField(`${path}.${name}`, name, Object.keys(defaults)));
    else result[name] = check(name, item, `${path}.${name}`);
  }
  return result as T;
}

/**
 * Checks a config file's content and merges it over the defaults. Every problem is reported at once,
 * each naming its field; unknown fields are problems too (a typo must not be silently ignored).
 *
 * @example
 * const config = parseConfig(JSON.parse(text)); // throws ConfigError naming e.g. config.keys[2].organization
 */
export function parseConfig(input: unknown): MockConfig {
  const problems: Problems = [];
  if (!isObject(input)) throw new ConfigError(['config: expected a JSON object']);
  const d = defaultConfig;
  const out: Record<string, unknown> = { ...d };
  const checks: Record<keyof MockConfig, (value: unknown, path: string) => unknown> = {
    keys: (v) => keys(v, problems),
    reservedVoiceIds: (v, p) => stringList(v, p, problems, true),
    freeCloneUses: (v, p) => number(v, p, problems, 0, true),
    uploadsPerHour: (v, p) => number(v, p, problems, 0, true),
    maxTextLength: (v, p) => number(v, p, problems, 1, true),
    languages: (v, p) => stringList(v, p, problems),
    emotions: (v, p) => stringList(v, p, problems),
    audioFormats: (v, p) => formatList(v, p, problems),
    defaultVoice: (v, p) => nonEmptyString(v, p, problems),
    defaultAudioFormat: (v, p) => formatList([v], p, problems)?.[0],
    pcmHeaders: (v, p) => section(v, p, d.pcmHeaders, problems, (_n, i, ip) => dataHeader(i, ip, problems)),
    streaming: (v, p) =>
      section(v, p, d.streaming, problems, (n, i, ip) =>
        n === 'realtime' ? boolean(i, ip, problems) : number(i, ip, problems, n === 'chunkMs' ? 1 : 0),
      ),
    reference: (v, p) => section(v, p, d.reference, problems, (_n, i, ip) => number(i, ip, problems, 0)),
    signedUrlTtlSeconds: (v, p) => number(v, p, problems, 1),
    requestLogSize: (v, p) => number(v, p, problems, 0, true),
    allowPrivateUrls: (v, p) => boolean(v, p, problems),
  };
  const known = [...Object.keys(checks), ...serverFields];
  for (const [name, value] of Object.entries(input)) {
    const check = checks[name as keyof MockConfig];
    if (serverFields.includes(name))
      problems.push(
        `config.${name}: read from a config file by the Node server (voice-kit mock --config, startMockServer), not by the service`,
      );
    else if (!check) problems.push(unknownField(`config.${name}`, name, known));
    else out[name] = check(value, `config.${name}`);
  }
  const config = out as unknown as MockConfig;
  if (problems.length === 0 && !config.audioFormats.includes(config.defaultAudioFormat)) {
    problems.push(`config.defaultAudioFormat: "${config.defaultAudioFormat}" is not in config.audioFormats`);
  }
  const pcm = Object.values(config.pcmHeaders).map((name) => String(name).toLowerCase());
  if (problems.length === 0 && new Set(pcm).size !== pcm.length)
    problems.push('config.pcmHeaders: the three header names must differ');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function boolean(value: unknown, path: string, problems: Problems): boolean | undefined {
  if (typeof value === 'boolean') return value;
  problems.push(`${path}: expected true or false`);
  return undefined;
}
