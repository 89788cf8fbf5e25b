/**
 * The folders the proxy writes into (the report folder, the HAR's), made and proven writable when it
 * starts, so that a session is never run only to be lost at the end. A folder that cannot be had is a
 * `ProxySetupError`: a user's mistake, told in one line (the CLI exits 2 with it), never a stack trace.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ProxyReport } from './types.js';

/** A problem with what the proxy was asked to do, found before it listens; `message` is one line. */
export class ProxySetupError extends Error {
  override readonly name = 'ProxySetupError';
}

/** The reports (or the HAR) could not be written when the proxy stopped; the session's report is kept on it. */
export class ReportWriteError extends Error {
  override readonly name = 'ReportWriteError';
  constructor(
    message: string,
    /** The session, as it would have been written. */
    readonly report: ProxyReport,
    /** The files that were written all the same. */
    readonly files: readonly string[],
  ) {
    super(message);
  }
}

const noFollow = constants.O_NOFOLLOW ?? 0;

/** Opens `path` for writing only if nothing is there, never through a symlink, readable by its owner alone. */
export function openExclusive(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o600);
}

/**
 * `mkdir -p`, one level at a time. Node's own recursive mkdir loops forever where the parent exists
 * but refuses a child with ENOENT (`/proc/nope`), which hung the proxy at its end with 100 % CPU.
 */
function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      // A symlink to a folder is the user's choice of folder: followed.
      if (!statSync(at).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw error;
      missing.unshift(at);
    }
  }
  for (const at of missing) mkdirSync(at, { mode: 0o755 });
}

/**
 * Makes `dir` (and its parents) and writes and removes a probe file in it; throws a `ProxySetupError`
 * naming `what` (`the report folder`) when that fails.
 *
 * @example
 * ensureWritableDir('reports/proxy', 'the report folder (--report-dir)');
 */
export function ensureWritableDir(dir: string, what: string): void {
  const probe = resolve(dir, `.voice-kit-probe-${randomBytes(6).toString('hex')}`);
  try {
    makeDir(dir);
    closeSync(openExclusive(probe));
    rmSync(probe, { force: true });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new ProxySetupError(`${what} ${dir} cannot be written: ${e.code ?? e.message}`);
  }
}
