/**
 * Reading a calibration profile file (Node only): the text, checked by parse.ts. Every failure is a
 * ProfileError whose one-line message starts with the file, then the field:
 * `staging.json: points["list-ordr"]: unknown point (did you mean "list-order"?)`.
 */

import { pathShown } from '../common/path-shown.js';
import { FileTooLargeError, readTextCapped } from '../common/read-capped.js';
import { ProfileError, parseProfileText } from './parse.js';
import type { Profile } from './types.js';

/**
 * A profile file larger than this is refused, counted in the bytes actually read (a pipe or /dev/zero
 * claims no size); one holds ~30 points and their evidence.
 */
export const profileFileMaxBytes = 16 * 1024 * 1024;

/**
 * The profile in the file at `path`; a ProfileError naming the file (and the field) when it cannot be
 * read, is not JSON or is not a profile this kit reads.
 *
 * @example const profile = await readProfileFile('staging.json');
 */
export async function readProfileFile(path: string): Promise<Profile> {
  let text: string;
  try {
    text = await readTextCapped(path, profileFileMaxBytes);
  } catch (error) {
    if (error instanceof FileTooLargeError)
      throw new ProfileError(
        `${pathShown(path)}: more than ${profileFileMaxBytes} bytes; a profile file holds at most ${profileFileMaxBytes}`,
        '',
      );
    throw new ProfileError(`${pathShown(path)}: cannot read the file (${(error as Error).message})`, '');
  }
  try {
    return parseProfileText(text);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    throw new ProfileError(`${pathShown(path)}: ${error.message}`, error.field);
  }
}
