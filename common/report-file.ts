/**
 * The one way the kit writes a report file (Node only): to a temporary file of a random name beside
 * it, opened only if nothing is there and never through a link, then renamed over the path, so a
 * reader never sees half a report. A symbolic link at the path is refused in one line (renaming over
 * it would be safe, but a link there is someone's mistake or trap, and the user is told so).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const noFollow = constants.O_NOFOLLOW ?? 0;

/** A report's path is a symbolic link: nothing was written. */
export class ReportPathError extends Error {
  override readonly name = 'ReportPathError';
}

/** Opens a new file only if nothing is there, never through a symlink. */
export function openNewFile(path: string, mode = 0o644): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, mode);
}

/** A name beside `path` for a temporary file (hidden, random, tagged). */
export function siblingOf(path: string, tag: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.${tag}`);
}

/**
 * A symbolic link at `path`, in one line, or undefined (anything else in the way, a folder, fails the
 * rename with the file system's own error).
 *
 * @example linkProblem('reports/explore.md'); // 'reports/explore.md is a symbolic link: reports are not written through one'
 */
export function linkProblem(path: string): string | undefined {
  const at = lstatSync(path, { throwIfNoEntry: false });
  return at?.isSymbolicLink() ? `${path} is a symbolic link: reports are not written through one` : undefined;
}

/**
 * Writes `data` to `path` through a temporary file and a rename; throws a {@link ReportPathError}
 * when a link is at `path`, or the file system's error. `mode` defaults to 0644.
 *
 * @example
 * writeReportFile('reports/conformance/conformance.md', markdown);
 * writeReportFile('reports/profile.json', json, { mode: 0o600 });
 */
export function writeReportFile(
  path: string,
  data: string | Uint8Array,
  options: { readonly mode?: number } = {},
): void {
  const problem = linkProblem(path);
  if (problem) throw new ReportPathError(problem);
  const staged = siblingOf(path, 'tmp');
  try {
    const fd = openNewFile(staged, options.mode ?? 0o644);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
    } finally {
      closeSync(fd);
    }
    renameSync(staged, path);
  } finally {
    rmSync(staged, { force: true });
  }
}
