/**
 * The owner of a mock's temporary directory (file-storage.ts), so that the directory of a mock that
 * was killed (SIGKILL, the OOM killer) is removed by the next mock that starts instead of staying in
 * the OS temp dir forever. Each directory holds `voice-kit-owner.json`: the owner's pid and its start
 * time (so a pid the OS has handed to another process since is not taken for the owner). A sweep
 * removes only directories of our prefix that hold that file, belong to this user, are no symlink,
 * and whose owner is gone; a directory without the file (not provably ours) is never touched. A zombie
 * (state `Z`: exited, not yet reaped, common in a container without an init) is gone: it still holds
 * its pid but will never run again.
 */
import { readFileSync } from 'node:fs';
import { lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ownerFileName = 'voice-kit-owner.json';
/** The prefix of the temporary directories (mkdtemp adds six characters). */
export const tempPrefix = 'voice-kit-';

export interface Owner {
  readonly pid: number;
  /** The owner's start time: /proc's start tick where there is one, else null (then the pid alone decides). */
  readonly started: string | null;
}

/** What Linux's /proc says of a process: its state letter (`R`, `S`, `Z`…) and start time (clock ticks since boot). */
export interface ProcStat {
  readonly state: string;
  readonly started: string;
}

/** `/proc/<pid>/stat` read, or null where there is no /proc (or no such process). */
export type ProcStatReader = (pid: number) => ProcStat | null;

/** The line of `/proc/<pid>/stat`, read; null when there is none. */
export function procStatOf(pid: number): ProcStat | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, started] = [fields[0], fields[19]];
  return state && started ? { state, started } : null;
}

/** When the process `pid` started, as Linux's /proc says (clock ticks since boot); null elsewhere. */
export function startOf(pid: number): string | null {
  return procStatOf(pid)?.started ?? null;
}

/** Writes this process as the owner of `directory`. */
export async function writeOwner(directory: string): Promise<void> {
  const owner: Owner = { pid: process.pid, started: startOf(process.pid) };
  await writeFile(join(directory, ownerFileName), JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
}

/**
 * True while the process that wrote `owner` runs: a pid reused by another process is not it, and a
 * zombie (state `Z`, or `X` dead) is gone.
 */
export function ownerLives(owner: Owner, readStat: ProcStatReader = procStatOf): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of another user holds the pid: not our mock, unless /proc cannot tell.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const stat = readStat(owner.pid);
  if (stat !== null && (stat.state === 'Z' || stat.state === 'X')) return false;
  if (owner.started === null) return true;
  return stat === null || stat.started === owner.started;
}

async function ownerOf(directory: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(directory, ownerFileName), 'utf8')) as Owner;
    if (!Number.isInteger(owner?.pid) || owner.pid <= 0) return undefined;
    if (owner.started !== null && typeof owner.started !== 'string') return undefined;
    return owner;
  } catch {
    return undefined;
  }
}

/**
 * Removes the temporary directories in `tmp` left by mocks whose process is gone; answers how many.
 * Never fails a start: a directory it cannot judge or remove is left as it is.
 *
 * @example
 * await sweepOrphans(os.tmpdir());
 */
export async function sweepOrphans(tmp: string, readStat: ProcStatReader = procStatOf): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmp);
  } catch {
    return 0;
  }
  let removed = 0;
  const uid = process.getuid?.();
  for (const name of names) {
    if (!name.startsWith(tempPrefix) || name.length !== tempPrefix.length + 6) continue;
    const directory = join(tmp, name);
    try {
      const entry = await lstat(directory);
      if (!entry.isDirectory() || (uid !== undefined && entry.uid !== uid)) continue;
      const owner = await ownerOf(directory);
      if (!owner || owner.pid === process.pid || ownerLives(owner, readStat)) continue;
      await rm(directory, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Gone meanwhile, or not ours to remove: left alone.
    }
  }
  return removed;
}
