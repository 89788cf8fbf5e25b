import { readFile } from 'node:fs/promises';
import { ConfigError, parseConfig } from '../config/parse-config.js';
import type { MockConfig } from '../config/types.js';

/**
 * Reads and checks a JSON config file (Node only). Unreadable files and bad JSON are ConfigErrors too,
 * so the CLI has one kind of failure to print.
 *
 * @example
 * const config = await loadConfigFile('voice-kit.config.json');
 */
export async function loadConfigFile(path: string): Promise<MockConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`${path}: cannot read the file (${(error as Error).message})`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${path}: not valid JSON (${(error as Error).message})`]);
  }
  return parseConfig(json);
}
