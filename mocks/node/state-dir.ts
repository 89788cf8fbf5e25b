import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Storage, StorageWriter } from '../core/platform/storage.js';
import type { StateRow, StateStore } from '../core/state/state-store.js';
import { type StateDb, startStateDb } from './state-db.js';
import { StateDirError } from './state-dir-error.js';

/** A state directory, open and locked: its rows as read at start, its store and its audio storage. */
export interface StateDir {
  readonly directory: string;
  readonly rows: readonly StateRow[];
  readonly store: StateStore;
  readonly storage: Storage;
}

interface StoredObject {
  readonly sha256: string;
  readonly size: number;
}

const isErrno = (error: unknown, ...codes: string[]): boolean =>
  codes.includes((error as NodeJS.ErrnoException)?.code ?? '');

/** fsync of a directory, so a rename in it survives a power cut; not every platform allows it. */
async function syncDirectory(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch (error) {
    if (!isErrno(error, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF')) throw error;
  } finally {
    await handle?.close();
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const whatToDo = (directory: string) =>
  `move ${directory} aside (or restore it from a backup, see docs/persistence.md) and start again; the mock does not start on a damaged state dir`;

/**
 * Opens (creating it when missing) the state directory of `voice-kit mock --state-dir`:
 * `state.db` (SQLite, WAL, synchronous=FULL, locked for this process alone) holds every row of the
 * state; `audio/<sha256>` holds the audio bytes, content-addressed. At open it takes the lock, checks
 * the layout version and the database, removes what a crash left half-made (temp files, bytes no row
 * names), and verifies the size and SHA-256 of every audio file a row names: anything unreadable is a
 * StateDirError naming the file, never an empty mock.
 *
 * @example
 * const dir = await openStateDir('.voice-kit-state');
 * const service = createMockService({ storage: dir.storage, persistence: dir });
 */
export async function openStateDir(path: string): Promise<StateDir> {
  const directory = resolve(path);
  const audioDir = join(directory, 'audio');
  const tempDir = join(audioDir, 'tmp');
  const dbPath = join(directory, 'state.db');
  try {
    await mkdir(tempDir, { recursive: true });
  } catch (error) {
    throw new StateDirError(`cannot create the state dir ${directory}: ${(error as Error).message}`);
  }
  await probeWritable(directory, audioDir, tempDir);
  const db = await startStateDb(dbPath, directory);
  try {
    const { rows, objects } = db.opened;
    await collectGarbage(objects, audioDir, tempDir);
    await verifyAudio(rows, objects, audioDir, directory);
    return {
      directory,
      rows,
      store: sqliteStore(db),
      storage: stateDirStorage(db, objects, audioDir, tempDir),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * The mock writes the directory (the database's log), audio/tmp/ and audio/ (the renames of every
 * upload): one that cannot be written would start, then answer every upload and save with a 500.
 * A probe file is written in tmp, renamed into audio/, and removed.
 */
async function probeWritable(directory: string, audioDir: string, tempDir: string): Promise<void> {
  const name = `.probe-${randomBytes(6).toString('hex')}`;
  let where = directory;
  try {
    await (await open(join(directory, name), 'wx')).close();
    await rm(join(directory, name));
    where = tempDir;
    await (await open(join(tempDir, name), 'wx')).close();
    where = audioDir;
    await rename(join(tempDir, name), join(audioDir, name));
    await rm(join(audioDir, name));
  } catch (error) {
    await rm(join(tempDir, name), { force: true }).catch(() => {});
    throw new StateDirError(
      `the state dir ${directory} cannot be written (${where}: ${(error as Error).message}); give this user write access to it, or start with another --state-dir`,
    );
  }
}

/** The storage ids the state's rows name: every upload, and every voice's reference audio. */
function namedObjects(rows: readonly StateRow[]): Set<string> {
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.table === 'upload') ids.add((row.value as { objectKey: string }).objectKey);
    if (row.table === 'voice') ids.add((row.value as { audioId: string }).audioId);
  }
  return ids;
}

/**
 * Removes the files no object row names (the worker already dropped the rows no state row names):
 * bytes of an upload that crashed before its row committed, and temp files of writes cut short.
 */
async function collectGarbage(
  objects: ReadonlyMap<string, StoredObject>,
  audioDir: string,
  tempDir: string,
): Promise<void> {
  const kept = new Set([...objects.values()].map((o) => o.sha256));
  for (const name of await readdir(audioDir)) {
    if (name !== 'tmp' && !kept.has(name)) await rm(join(audioDir, name), { force: true, recursive: true });
  }
  for (const name of await readdir(tempDir)) await rm(join(tempDir, name), { force: true });
}

/**
 * Every audio file a row names must be there with its size and its SHA-256: else the start stops. An
 * id with no object row is no damage: a restored snapshot may name bytes that were gone already (they
 * are kept only while the mock that took it runs); reading them answers as after a reset, as in memory.
 */
async function verifyAudio(
  rows: readonly StateRow[],
  objects: ReadonlyMap<string, StoredObject>,
  audioDir: string,
  directory: string,
): Promise<void> {
  const checked = new Set<string>();
  for (const id of namedObjects(rows)) {
    const object = objects.get(id);
    if (!object || checked.has(object.sha256)) continue;
    checked.add(object.sha256);
    const file = join(audioDir, object.sha256);
    let size: number;
    let hash: string | undefined;
    try {
      size = (await stat(file)).size;
      // Hashed only when the size is right: a wrong size says enough.
      if (size === object.size) hash = await sha256Of(file);
    } catch (error) {
      if (isErrno(error, 'ENOENT'))
        throw new StateDirError(`the audio file ${file} (of ${id}) is missing; ${whatToDo(directory)}`);
      throw new StateDirError(
        `the audio file ${file} (of ${id}) cannot be read (${(error as Error).message}); give this user read access to ${directory}, or ${whatToDo(directory)}`,
      );
    }
    if (size !== object.size || hash !== object.sha256)
      throw new StateDirError(
        `the audio file ${file} (of ${id}) is damaged: its ${size !== object.size ? `size is ${size} bytes, not ${object.size}` : 'SHA-256 does not match its name'}; ${whatToDo(directory)}`,
      );
  }
}

/** The StateStore over the `state` table: a commit resolves once its transaction is durable. */
function sqliteStore(db: StateDb): StateStore {
  return {
    durable: true,
    commit: (change) => db.write({ change }),
    read: () => db.read(),
    close: () => db.close(),
  };
}

/**
 * Audio bytes as content-addressed files: a write streams into audio/tmp/, is fsynced, renamed to
 * audio/<sha256> and the directory fsynced, and only then is the row naming it (table objects)
 * committed. Renames and removals run one at a time, so a removal never takes a file another write
 * has just named.
 */
function stateDirStorage(
  db: StateDb,
  objects: Map<string, StoredObject>,
  audioDir: string,
  tempDir: string,
): Storage {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step, step);
    queue = next.catch(() => {});
    return next;
  };
  const usedBy = (sha256: string) => [...objects.values()].some((o) => o.sha256 === sha256);
  const remove = (id: string) =>
    serial(async () => {
      const object = objects.get(id);
      if (!object) return;
      await db.write({ deleteObject: id });
      objects.delete(id);
      if (!usedBy(object.sha256)) await rm(join(audioDir, object.sha256), { force: true });
    });
  return {
    create(id): StorageWriter {
      const temp = join(tempDir, randomBytes(12).toString('hex'));
      const hash = createHash('sha256');
      let size = 0;
      let handle: Promise<Awaited<ReturnType<typeof open>>> | undefined;
      const file = () => (handle ??= open(temp, 'wx'));
      return {
        async write(chunk) {
          const out = await file();
          hash.update(chunk);
          size += chunk.byteLength;
          let written = 0;
          while (written < chunk.byteLength) {
            written += (await out.write(chunk, written, chunk.byteLength - written)).bytesWritten;
          }
        },
        async close() {
          const out = await file();
          try {
            await out.sync();
          } finally {
            await out.close();
          }
          const sha256 = hash.digest('hex');
          await serial(async () => {
            await rename(temp, join(audioDir, sha256));
            objects.set(id, { sha256, size });
          });
          // The name is durable before the row that names it commits.
          await syncDirectory(audioDir);
          await db.write({ putObject: { id, sha256, size } });
        },
        async abort() {
          if (handle) await (await handle).close().catch(() => {});
          await rm(temp, { force: true });
        },
      };
    },
    async read(id) {
      const object = objects.get(id);
      if (!object) return undefined;
      try {
        return new Uint8Array(await readFile(join(audioDir, object.sha256)));
      } catch {
        return undefined;
      }
    },
    remove,
    async clear() {
      for (const id of [...objects.keys()]) await remove(id);
    },
    // The files stay: they are the state. The database closes with the store.
    async close() {
      await queue;
    },
  };
}
