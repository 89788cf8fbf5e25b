import { dirname, resolve } from 'node:path';
import { jsonTextTooDeep } from '../../common/json-depth.js';
import { oneLine } from '../../common/one-line.js';
import { pathShown } from '../../common/path-shown.js';
import { FileTooLargeError, readTextCapped } from '../../common/read-capped.js';
import { ProfileError, parseProfile } from '../../profile/parse.js';
import { profileFileMaxBytes, readProfileFile } from '../../profile/profile-file.js';
import type { Profile } from '../../profile/types.js';
import { ConfigError, parseConfig } from '../config/parse-config.js';
import type { MockConfig } from '../config/types.js';
import { stateUrlProblem } from './postgres/state-url.js';

/**
 * A config file's content: the service's config, and what only the Node server reads (`stateDir`,
 * `profile`).
 */
export interface MockFile {
  readonly config: MockConfig;
  /** `"stateDir"` of the file, resolved against the file's own folder; undefined when not given. */
  readonly stateDir: string | undefined;
  /** `"stateUrl"` of the file: the PostgreSQL database of replicas (docs/replicas.md). */
  readonly stateUrl?: string;
  /** `"profile"` of the file (a path, against the file's own folder, or the profile inline). */
  readonly profile?: Profile;
  /** Where it came from, for the start line: the profile file, or `<config file> (inline)`. */
  readonly profileSource?: string;
}

/**
 * The most a config file may hold, counted in the bytes read (a pipe claims no size): a profile inline
 * and the keys; and how deep its JSON may nest (an inline profile's own limit is checked by its parser).
 */
export const configFileLimits = { bytes: profileFileMaxBytes, depth: 64 } as const;

/** The file's `"profile"`: a file (relative to the config file) or an inline object; a ProfileError names both. */
async function profileOf(path: string, value: unknown): Promise<Profile> {
  if (typeof value === 'string' && value.trim() !== '') {
    try {
      return await readProfileFile(resolve(dirname(path), value));
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      throw new ProfileError(`${path}: profile: ${error.message}`, error.field);
    }
  }
  try {
    return parseProfile(value);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    const message = error.message.startsWith('profile:') ? error.message : `profile.${error.message}`;
    throw new ProfileError(`${path}: ${message}`, error.field);
  }
}

/**
 * Reads and checks a JSON config file (Node only), with its optional `"stateDir"` (see
 * docs/persistence.md). Unreadable files and bad JSON are ConfigErrors too, so the CLI has one kind of
 * failure to print.
 *
 * @example
 * const { config, stateDir } = await readMockFile('voice-kit.config.json');
 */
export async function readMockFile(path: string): Promise<MockFile> {
  let text: string;
  try {
    text = await readTextCapped(path, configFileLimits.bytes);
  } catch (error) {
    if (error instanceof FileTooLargeError)
      throw new ConfigError([
        `${pathShown(path)}: more than ${configFileLimits.bytes} bytes; a config file holds at most that`,
      ]);
    throw new ConfigError([`${pathShown(path)}: cannot read the file (${(error as Error).message})`]);
  }
  if (jsonTextTooDeep(text, configFileLimits.depth))
    throw new ConfigError([`${path}: nested deeper than ${configFileLimits.depth} levels`]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${path}: not valid JSON (${oneLine((error as Error).message)})`]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { config: parseConfig(json), stateDir: undefined };
  const { stateDir, stateUrl, profile, ...rest } = json as Record<string, unknown>;
  if (stateDir !== undefined && (typeof stateDir !== 'string' || stateDir.trim() === ''))
    throw new ConfigError(['config.stateDir: expected a non-empty string (a directory)']);
  const urlProblem = stateUrl === undefined ? undefined : stateUrlProblem('config.stateUrl', stateUrl);
  if (urlProblem) throw new ConfigError([urlProblem]);
  const config = parseConfig(rest);
  return {
    config,
    stateDir: stateDir === undefined ? undefined : resolve(dirname(path), stateDir as string),
    ...(stateUrl === undefined ? {} : { stateUrl: stateUrl as string }),
    ...(profile === undefined
      ? {}
      : {
          profile: await profileOf(path, profile),
          profileSource: typeof profile === 'string' ? resolve(dirname(path), profile) : `${path} (inline)`,
        }),
  };
}

/**
 * Reads and checks a JSON config file (Node only): the service's config (a `"stateDir"` in it is
 * the server's, read by readMockFile). Unreadable files and bad JSON are ConfigErrors too.
 *
 * @example
 * const config = await loadConfigFile('voice-kit.config.json');
 */
export async function loadConfigFile(path: string): Promise<MockConfig> {
  return (await readMockFile(path)).config;
}
