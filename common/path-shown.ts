/**
 * A file path as an error names it. A relative path is read from the process's folder, which is not
 * always the one the user thinks of (npm runs scripts in the package's folder; the kit's npm scripts
 * move to the folder npm was run in): so the message says which folder it was. **Node only**.
 */
import { isAbsolute } from 'node:path';

/**
 * `path` with the folder a relative one was read from.
 *
 * @example
 * pathShown('../profile.json'); // '../profile.json (from /home/me/app)'
 */
export function pathShown(path: string): string {
  return isAbsolute(path) ? path : `${path} (from ${process.cwd()})`;
}
