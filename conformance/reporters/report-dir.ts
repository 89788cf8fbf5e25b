/**
 * The report folder, checked before the first case: a run may be long and billable, so a folder the
 * reports cannot go to (a file in the way, a read-only or virtual file system) is a setup mistake to
 * report at once, not a stack trace after the run.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's own `mkdir(dir, { recursive: true })` never settles (and
 * spins a core) on some paths, such as /proc/nope on Linux, where mkdir answers ENOENT forever.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    const found = await stat(p).then(
      (s) => s,
      () => undefined,
    );
    if (found) {
      if (!found.isDirectory())
        throw Object.assign(new Error(`${p} is not a directory`), { code: 'ENOTDIR' });
      break;
    }
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing)
    await mkdir(p).catch((error: NodeJS.ErrnoException) => {
      // Another process made it meanwhile: fine.
      if (error.code !== 'EEXIST') throw error;
    });
}

/** The code of a file system error in words (`EEXIST`, `EACCES`...), else its message. */
export function fileErrorText(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === 'string') {
    const why: Record<string, string> = {
      EEXIST: 'a file is in the way',
      ENOTDIR: 'a file is in the way',
      EISDIR: 'a folder is in the way',
      EACCES: 'permission denied',
      EPERM: 'permission denied',
      EROFS: 'read-only file system',
      ENOENT: 'no such file or directory',
      ENOSPC: 'no space left on the device',
    };
    return `${why[e.code] ?? 'cannot write'} (${e.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Create `dir` (with its parents) and write and remove a probe file in it. Resolves with undefined
 * when reports can be written there, else with why not, in words.
 *
 * @example
 * await reportDirProblem('/proc/nope'); // 'no such file or directory (ENOENT)'
 */
export async function reportDirProblem(dir: string): Promise<string | undefined> {
  const probe = join(dir, `.voice-kit-probe-${process.pid}`);
  try {
    await makeDirectory(dir);
    await writeFile(probe, '');
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return fileErrorText(error);
  }
}
