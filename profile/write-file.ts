/**
 * Writing a profile file (Node only), as the proxy writes its HAR: private (0600), to a temporary file
 * of a random name beside it, renamed over the path at the end, so a reader never sees half a profile
 * and a link planted at the path is replaced, never followed. `profilePathProblem` is asked before a
 * run or a session starts: a run is never made only to find its profile cannot be written.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Profile } from './types.js';

const noFollow = constants.O_NOFOLLOW ?? 0;

/** Opens a new file only if nothing is there, never through a symlink, readable by its owner alone. */
function openNew(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o600);
}

const sibling = (path: string, tag: string) =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.${tag}`);

/**
 * Why a profile cannot be written at `path`, in one line, or undefined: a folder or a symbolic link at
 * the path, a folder that does not exist or cannot be written.
 *
 * @example profilePathProblem('reports'); // 'reports is a folder: --write-profile takes a file name'
 */
export function profilePathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'the path is empty';
  const at = lstatSync(path, { throwIfNoEntry: false });
  if (at?.isSymbolicLink()) return `${path} is a symbolic link: a profile is not written through one`;
  if (at?.isDirectory()) return `${path} is a folder: a profile is written to a file`;
  if (at && !at.isFile()) return `${path} is not a regular file`;
  const dir = dirname(path);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return `the folder ${dir} does not exist`;
  const probe = sibling(path, 'probe');
  try {
    closeSync(openNew(probe));
    rmSync(probe, { force: true });
  } catch (error) {
    return `the folder ${dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return undefined;
}

/**
 * Writes `profile` to `path` as JSON (two-space indented, a newline at the end); throws an Error in
 * one line when it cannot.
 */
export function writeProfileFile(path: string, profile: Profile): void {
  const problem = profilePathProblem(path);
  if (problem) throw new Error(`cannot write the profile: ${problem}`);
  const staged = sibling(path, 'tmp');
  try {
    const fd = openNew(staged);
    try {
      writeSync(fd, `${JSON.stringify(profile, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(staged, path);
  } finally {
    rmSync(staged, { force: true });
  }
}
