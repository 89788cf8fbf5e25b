/**
 * What a state directory may hold, and how the mock recognises one it wrote (docs/persistence.md):
 * the marker file `voice-kit-state.json`, `state.db` (and SQLite's `-wal`/`-journal` beside it),
 * `audio/<sha256>`, `audio/tmp/<24 hex>` and `damaged/` (what `--repair` moved aside). The mock
 * removes only files of those names that it wrote, one by one: never a folder, never through a
 * symlink, never a file of another name. A directory that holds anything else where the mock writes
 * (audio/) is refused, so `--state-dir .` in an app with an `audio/` folder deletes nothing.
 */
import { lstat, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StateDirError } from './state-dir-error.js';

/** The marker file's name, in the state dir's root. */
export const markerName = 'voice-kit-state.json';

/** The layout this voice-kit writes (the marker's `version`); a newer one is refused. */
export const layoutVersion = 1;

/** A recording: `audio/<sha256>`. */
export const isRecordingName = (name: string): boolean => /^[0-9a-f]{64}$/.test(name);
/** A write in progress: `audio/tmp/<24 hex>` (state-dir.ts names them so). */
export const isTempName = (name: string): boolean => /^[0-9a-f]{24}$/.test(name);
/** The write probe of a start (state-dir.ts), left behind only by a crash during it. */
export const isProbeName = (name: string): boolean => /^\.probe-[0-9a-f]{12}$/.test(name);

/** How an existing directory was found: ours (marked), of the layout before the marker, or new. */
export type Found = 'marked' | 'unmarked-database' | 'new';

const errno = (error: unknown): string => (error as NodeJS.ErrnoException)?.code ?? '';

/** lstat, or undefined when nothing is there. */
async function entryAt(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
}

const listed = (names: string[]): string =>
  `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` (and ${names.length - 3} more)` : ''}`;

/**
 * Writes the marker (never over an existing file): the directory is then known as a state dir of
 * this layout. `wx`: a marker another process wrote first is left as it is.
 */
export async function writeMarker(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(join(directory, markerName), 'wx', 0o644);
    await handle.writeFile(`${JSON.stringify({ format: 'voice-kit-state', version: layoutVersion })}\n`);
    await handle.sync();
  } catch (error) {
    if (errno(error) !== 'EEXIST') throw error;
  } finally {
    await handle?.close();
  }
}

/** Reads the marker: refused when it is not ours or of a newer layout. */
async function checkMarker(directory: string): Promise<void> {
  const path = join(directory, markerName);
  let marker: { format?: unknown; version?: unknown };
  try {
    marker = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new StateDirError(
      `${path} is not a voice-kit state marker (${(error as Error).message}); restore ${directory} from a backup, or start with another --state-dir`,
    );
  }
  if (marker?.format !== 'voice-kit-state' || typeof marker.version !== 'number')
    throw new StateDirError(
      `${path} is not a voice-kit state marker; restore ${directory} from a backup, or start with another --state-dir`,
    );
  if (marker.version > layoutVersion)
    throw new StateDirError(
      `${directory} was written by a newer voice-kit (state dir layout ${marker.version}; this one reads up to ${layoutVersion}); upgrade voice-kit, or start with another --state-dir`,
    );
}

/**
 * Checks that audio/ (and audio/tmp/) hold only what the mock writes, each a regular file: a symlink
 * or a file of another name is refused with the path and what to do, before anything is created or
 * removed there.
 */
async function checkAudio(directory: string): Promise<void> {
  const audioDir = join(directory, 'audio');
  const audio = await entryAt(audioDir);
  if (!audio) return;
  const refuse = (what: string) =>
    new StateDirError(
      `${what}: the mock writes and removes files there, and touches nothing it did not write; move it out of ${directory}, or start with another --state-dir`,
    );
  if (!audio.isDirectory())
    throw refuse(`${audioDir} is ${audio.isSymbolicLink() ? 'a symlink' : 'not a directory'}`);
  const foreign: string[] = [];
  for (const name of await readdir(audioDir)) {
    const entry = await lstat(join(audioDir, name));
    if (name === 'tmp' && entry.isDirectory()) continue;
    if (!entry.isFile() || !(isRecordingName(name) || isProbeName(name))) foreign.push(name);
  }
  if (foreign.length > 0) throw refuse(`${audioDir} holds files voice-kit did not write: ${listed(foreign)}`);
  const tempDir = join(audioDir, 'tmp');
  if (!(await entryAt(tempDir))) return;
  for (const name of await readdir(tempDir)) {
    const entry = await lstat(join(tempDir, name));
    if (!entry.isFile() || !(isTempName(name) || isProbeName(name))) foreign.push(name);
  }
  if (foreign.length > 0) throw refuse(`${tempDir} holds files voice-kit did not write: ${listed(foreign)}`);
}

/**
 * Looks at the directory before the mock creates or removes anything in it: `new` when it is missing
 * or empty, `marked` when it holds our marker, `unmarked-database` when it holds a `state.db` but no
 * marker (a state dir of the layout before the marker, if the database says so: state-db-worker.ts
 * checks its user_version, then the marker is written). Anything else is refused.
 */
export async function inspectStateDir(directory: string): Promise<Found> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if (errno(error) === 'ENOENT') return 'new';
    if (errno(error) === 'ENOTDIR')
      throw new StateDirError(`${directory} is not a directory; give --state-dir a directory`);
    throw new StateDirError(`cannot read the state dir ${directory}: ${(error as Error).message}`);
  }
  if (names.length === 0) return 'new';
  await checkAudio(directory);
  if (names.includes(markerName)) {
    await checkMarker(directory);
    return 'marked';
  }
  const db = await entryAt(join(directory, 'state.db'));
  if (db?.isFile()) return 'unmarked-database';
  throw new StateDirError(
    `${directory} is not empty and is no voice-kit state dir (it has no ${markerName}; it holds ${listed(names)}); give --state-dir a new or empty directory, e.g. .voice-kit-state`,
  );
}

/**
 * Removes what a crash or a removal left in audio/: recordings no object row names (`kept` holds the
 * SHA-256 of those it names), temp files and probes. Only regular files of our names, one by one
 * (inspectStateDir already refused anything else).
 */
export async function collectGarbage(audioDir: string, kept: ReadonlySet<string>): Promise<void> {
  const tempDir = join(audioDir, 'tmp');
  const removable = async (dir: string, name: string, ours: boolean) => {
    if (!ours) return;
    const entry = await entryAt(join(dir, name));
    if (entry?.isFile()) await rm(join(dir, name), { force: true });
  };
  for (const name of await readdir(audioDir))
    await removable(audioDir, name, (isRecordingName(name) && !kept.has(name)) || isProbeName(name));
  for (const name of await readdir(tempDir))
    await removable(tempDir, name, isTempName(name) || isProbeName(name));
}
