import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StateChange, StateRow, StateStore, StateTable } from '../core/state/state-store.js';
import { stateTables } from '../core/state/state-store.js';
import type { Storage, StorageWriter } from '../core/storage.js';
import { loadSqlite } from './sqlite.js';
import { StateDirError } from './state-dir-error.js';

/** The layout version this voice-kit writes (SQLite's user_version); a newer one is refused. */
export const stateSchemaVersion = 1;

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
  const { DatabaseSync } = await loadSqlite();
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(dbPath);
  } catch (error) {
    throw new StateDirError(`cannot open ${dbPath}: ${(error as Error).message}; ${whatToDo(directory)}`);
  }
  try {
    const state = openDatabase(db, dbPath, directory);
    const rows = readRows(db, dbPath, directory);
    const objects = readObjects(db, dbPath, directory);
    await collectGarbage(db, rows, objects, audioDir, tempDir);
    await verifyAudio(rows, objects, audioDir, directory);
    return { directory, rows, ...state, storage: stateDirStorage(db, objects, audioDir, tempDir) };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The lock, the pragmas, the layout version, the integrity check; creates the tables of a new dir. */
function openDatabase(db: DatabaseSync, dbPath: string, directory: string): { store: StateStore } {
  try {
    // No waiting for a lock: a second mock on this dir is refused at once. EXCLUSIVE locking keeps the
    // lock (an OS file lock, released by the kernel even on kill -9) for as long as this process lives,
    // and with it WAL needs no shared-memory file.
    db.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE;');
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    const message = (error as Error).message;
    if (/locked|busy/i.test(message))
      throw new StateDirError(
        `the state dir ${directory} is in use by another voice-kit mock (${dbPath} is locked); stop that mock, or start this one with another --state-dir`,
      );
    throw new StateDirError(`${dbPath} cannot be read (${message}); ${whatToDo(directory)}`);
  }
  try {
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version > stateSchemaVersion)
      throw new StateDirError(
        `${dbPath} was written by a newer voice-kit (state layout ${version}; this one reads up to ${stateSchemaVersion}); upgrade voice-kit, or start with another --state-dir`,
      );
    // WAL: a commit appends to the log instead of rewriting pages; FULL: the log is fsynced at every
    // commit, so an answer sent after a commit survives kill -9 and a power cut alike (NORMAL would
    // lose the last commits on a power cut).
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    const check = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (check[0]?.quick_check !== 'ok')
      throw new Error(check.map((row) => row.quick_check).join('; ') || 'the integrity check failed');
    if (version === 0) {
      db.exec(`BEGIN;
        CREATE TABLE IF NOT EXISTS state (tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS objects (id TEXT PRIMARY KEY NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL) WITHOUT ROWID;
        PRAGMA user_version = ${stateSchemaVersion};
        COMMIT;`);
    }
  } catch (error) {
    if (error instanceof StateDirError) throw error;
    throw new StateDirError(`${dbPath} cannot be read (${(error as Error).message}); ${whatToDo(directory)}`);
  }
  return { store: sqliteStore(db) };
}

function readRows(db: DatabaseSync, dbPath: string, directory: string): StateRow[] {
  const rows: StateRow[] = [];
  try {
    for (const row of db.prepare('SELECT tbl, key, value FROM state').all() as {
      tbl: string;
      key: string;
      value: string;
    }[]) {
      if (!stateTables.includes(row.tbl as StateTable)) throw new Error(`unknown table "${row.tbl}"`);
      rows.push({ table: row.tbl as StateTable, key: row.key, value: JSON.parse(row.value) });
    }
  } catch (error) {
    throw new StateDirError(`${dbPath} cannot be read (${(error as Error).message}); ${whatToDo(directory)}`);
  }
  return rows;
}

function readObjects(db: DatabaseSync, dbPath: string, directory: string): Map<string, StoredObject> {
  try {
    const objects = new Map<string, StoredObject>();
    for (const row of db.prepare('SELECT id, sha256, size FROM objects').all() as {
      id: string;
      sha256: string;
      size: number;
    }[]) {
      if (!/^[0-9a-f]{64}$/.test(row.sha256)) throw new Error(`object ${row.id} has no valid sha256`);
      objects.set(row.id, { sha256: row.sha256, size: Number(row.size) });
    }
    return objects;
  } catch (error) {
    throw new StateDirError(`${dbPath} cannot be read (${(error as Error).message}); ${whatToDo(directory)}`);
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
 * Removes what no row names: bytes written by an upload that crashed before its row committed (or
 * that a reset, a restore or a deletion left for the next start), and temp files of writes cut short.
 */
async function collectGarbage(
  db: DatabaseSync,
  rows: readonly StateRow[],
  objects: Map<string, StoredObject>,
  audioDir: string,
  tempDir: string,
): Promise<void> {
  const named = namedObjects(rows);
  const unused = [...objects.keys()].filter((id) => !named.has(id));
  if (unused.length > 0) {
    const remove = db.prepare('DELETE FROM objects WHERE id = ?');
    db.exec('BEGIN');
    for (const id of unused) {
      remove.run(id);
      objects.delete(id);
    }
    db.exec('COMMIT');
  }
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
    try {
      size = (await stat(file)).size;
    } catch {
      throw new StateDirError(`the audio file ${file} (of ${id}) is missing; ${whatToDo(directory)}`);
    }
    if (size !== object.size || (await sha256Of(file)) !== object.sha256)
      throw new StateDirError(
        `the audio file ${file} (of ${id}) is damaged: its ${size !== object.size ? `size is ${size} bytes, not ${object.size}` : 'SHA-256 does not match its name'}; ${whatToDo(directory)}`,
      );
  }
}

/** The StateStore over the `state` table: each commit is one transaction, durable when it returns. */
function sqliteStore(db: DatabaseSync): StateStore {
  let statements:
    | { clear: StatementSync; remove: StatementSync; put: StatementSync; all: StatementSync }
    | undefined;
  const prepared = () =>
    (statements ??= {
      clear: db.prepare('DELETE FROM state WHERE tbl = ?'),
      remove: db.prepare('DELETE FROM state WHERE tbl = ? AND key = ?'),
      put: db.prepare('INSERT OR REPLACE INTO state (tbl, key, value) VALUES (?, ?, ?)'),
      all: db.prepare('SELECT tbl, key, value FROM state'),
    });
  let open = true;
  return {
    durable: true,
    commit(change: StateChange): Promise<void> {
      // Synchronous (node:sqlite is): the change is on disk, in the order changes were made in
      // memory, before any other request runs.
      try {
        if (!open) throw new Error('the state store is closed');
        const s = prepared();
        db.exec('BEGIN IMMEDIATE');
        try {
          for (const table of change.clear ?? []) s.clear.run(table);
          for (const { table, key } of change.remove ?? []) s.remove.run(table, key);
          for (const { table, key, value } of change.put ?? []) s.put.run(table, key, JSON.stringify(value));
          db.exec('COMMIT');
        } catch (error) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async read() {
      return (prepared().all.all() as { tbl: StateTable; key: string; value: string }[]).map((row) => ({
        table: row.tbl,
        key: row.key,
        value: JSON.parse(row.value),
      }));
    },
    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}

/**
 * Audio bytes as content-addressed files: a write streams into audio/tmp/, is fsynced, renamed to
 * audio/<sha256> and the directory fsynced, and only then is the row naming it (table objects)
 * committed. Renames and removals run one at a time, so a removal never takes a file another write
 * has just named.
 */
function stateDirStorage(
  db: DatabaseSync,
  objects: Map<string, StoredObject>,
  audioDir: string,
  tempDir: string,
): Storage {
  const putObject = db.prepare('INSERT OR REPLACE INTO objects (id, sha256, size) VALUES (?, ?, ?)');
  const deleteObject = db.prepare('DELETE FROM objects WHERE id = ?');
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
      deleteObject.run(id);
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
            await syncDirectory(audioDir);
            putObject.run(id, sha256, size);
            objects.set(id, { sha256, size });
          });
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
