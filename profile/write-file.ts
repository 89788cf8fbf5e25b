/**
 * Writing a profile file (Node only), as every report is written (common/report-file.ts): private
 * (0600), to a temporary file of a random name beside it, renamed over the path at the end, so a reader
 * never sees half a profile, and a link planted at the path is refused, never followed.
 * `profilePathProblem` is asked before a run or a session starts: a run is never made only to find its
 * profile cannot be written.
 */
import { closeSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { linkProblem, openNewFile, siblingOf, writeReportFile } from '../common/report-file.js';
import type { Profile } from './types.js';

/**
 * Why a profile cannot be written at `path`, in one line, or undefined: a folder or a symbolic link at
 * the path, a folder that does not exist or cannot be written.
 *
 * @example profilePathProblem('reports'); // 'reports is a folder: --write-profile takes a file name'
 */
export function profilePathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'the path is empty';
  if (linkProblem(path)) return `${path} is a symbolic link: a profile is not written through one`;
  const at = statSync(path, { throwIfNoEntry: false });
  if (at?.isDirectory()) return `${path} is a folder: a profile is written to a file`;
  if (at && !at.isFile()) return `${path} is not a regular file`;
  const dir = dirname(path);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return `the folder ${dir} does not exist`;
  const probe = siblingOf(path, 'probe');
  try {
    closeSync(openNewFile(probe, 0o600));
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
  writeReportFile(path, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
}
