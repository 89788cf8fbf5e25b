/**
 * The thread that owns a state dir's SQLite database (state-db.ts starts it). node:sqlite is
 * synchronous: on the server's own thread every commit's fsync would stop every other request for
 * its duration. Here the fsyncs run beside the server, and writes that arrive while one is under way
 * are committed together in one transaction (group commit): one fsync for many answers.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { parentPort } from 'node:worker_threads';
import type { StateChange, StateTable } from '../core/state/state-store.js';
import { stateTables } from '../core/state/state-store.js';
import { loadSqlite } from './sqlite.js';

/** The layout version this voice-kit writes (SQLite's user_version); a newer one is refused. */
export const stateSchemaVersion = 1;

/** What the server's thread asks. */
export type DbRequest =
  | { id: number; op: 'open'; dbPath: string; directory: string; unmarked?: boolean }
  | {
      id: number;
      op: 'write';
      change?: StateChange;
      putObject?: { id: string; sha256: string; size: number };
      deleteObject?: string;
    }
  | { id: number; op: 'read' }
  | { id: number; op: 'close' };

/** The answer to one request: `error` when it failed (for open: the whole message for the user). */
export interface DbReply {
  id: number;
  error?: string;
  rows?: { table: StateTable; key: string; value: unknown }[];
  objects?: [string, { sha256: string; size: number }][];
}

type Write = Extract<DbRequest, { op: 'write' }>;

const whatToDo = (directory: string) =>
  `move ${directory} aside (or restore it from a backup, see docs/persistence.md) and start again; the mock does not start on a damaged state dir`;

class Refusal extends Error {}

const notOurs = (directory: string, dbPath: string) =>
  `${directory} is no voice-kit state dir (it has no voice-kit-state.json, and ${dbPath} is not a voice-kit state database); give --state-dir a new or empty directory, e.g. .voice-kit-state`;

/** The content-addressed recordings (files named by a SHA-256) in an audio folder; none when it is missing. */
function audioFilesIn(audioDir: string): string[] {
  try {
    return readdirSync(audioDir).filter((name) => /^[0-9a-f]{64}$/.test(name));
  } catch {
    return [];
  }
}

let db: DatabaseSync | undefined;
let statements:
  | {
      clear: StatementSync;
      remove: StatementSync;
      put: StatementSync;
      all: StatementSync;
      putObject: StatementSync;
      deleteObject: StatementSync;
    }
  | undefined;
let pending: Write[] = [];
let scheduled = false;

const port = parentPort;
if (!port) throw new Error('state-db-worker runs as a worker thread');
const reply = (message: DbReply) => port.postMessage(message);

function readAll(database: DatabaseSync) {
  return (
    database.prepare('SELECT tbl, key, value FROM state').all() as {
      tbl: string;
      key: string;
      value: string;
    }[]
  ).map((row) => {
    if (!stateTables.includes(row.tbl as StateTable)) throw new Error(`unknown table "${row.tbl}"`);
    return { table: row.tbl as StateTable, key: row.key, value: JSON.parse(row.value) as unknown };
  });
}

/** Opens, locks and checks the database; removes object rows no state row names (a crash's leftovers). */
async function open(dbPath: string, directory: string, unmarked = false): Promise<DbReply & { id: 0 }> {
  let DatabaseSyncClass: typeof DatabaseSync;
  try {
    DatabaseSyncClass = (await loadSqlite()).DatabaseSync;
  } catch (error) {
    throw new Refusal((error as Error).message);
  }
  let database: DatabaseSync;
  try {
    database = new DatabaseSyncClass(dbPath);
  } catch (error) {
    throw new Refusal(`cannot open ${dbPath}: ${(error as Error).message}; ${whatToDo(directory)}`);
  }
  try {
    try {
      // No waiting for a lock: a second mock on this dir is refused at once. EXCLUSIVE locking keeps
      // the lock (an OS file lock, released by the kernel even on kill -9) while this process lives,
      // and with it WAL needs no shared-memory file.
      database.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE;');
      database.exec('BEGIN EXCLUSIVE; COMMIT;');
    } catch (error) {
      const message = (error as Error).message;
      if (/locked|busy/i.test(message))
        throw new Refusal(
          `the state dir ${directory} is in use by another voice-kit mock (${dbPath} is locked); stop that mock, or start this one with another --state-dir`,
        );
      throw error;
    }
    const version = (database.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version > stateSchemaVersion)
      throw new Refusal(
        `${dbPath} was written by a newer voice-kit (state layout ${version}; this one reads up to ${stateSchemaVersion}); upgrade voice-kit, or start with another --state-dir`,
      );
    // No marker: only a state dir of the layout before it (a state.db of ours) is taken, and before
    // anything here changes the file (journal_mode would rewrite another program's database).
    if (unmarked && version !== stateSchemaVersion) throw new Refusal(notOurs(directory, dbPath));
    // WAL: a commit appends to the log instead of rewriting pages; FULL: the log is fsynced at every
    // commit, so an answer sent after a commit survives kill -9 and a power cut alike (NORMAL would
    // lose the last commits on a power cut).
    database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
    const check = database.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (check[0]?.quick_check !== 'ok')
      throw new Error(check.map((row) => row.quick_check).join('; ') || 'the integrity check failed');
    if (version === 0) {
      // A new database beside recordings of an old one: state.db was deleted or emptied, or the
      // write-ahead log that held its commits (state.db-wal) was removed. Starting would be an empty
      // mock, and the sweep of unnamed bytes would then delete every recording: refuse instead.
      const recordings = audioFilesIn(join(directory, 'audio'));
      if (recordings.length > 0)
        throw new Refusal(
          `${dbPath} holds no state, but ${join(directory, 'audio')} holds ${recordings.length} recording(s) of one: the database was deleted or emptied, or its write-ahead log ${dbPath}-wal was removed or damaged; restore ${directory} from a backup (see docs/persistence.md), or move it aside and start again; the mock does not start on a damaged state dir`,
        );
      database.exec(`BEGIN;
        CREATE TABLE IF NOT EXISTS state (tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS objects (id TEXT PRIMARY KEY NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL) WITHOUT ROWID;
        PRAGMA user_version = ${stateSchemaVersion};
        COMMIT;`);
    }
    const rows = readAll(database);
    const objects = new Map<string, { sha256: string; size: number }>();
    for (const row of database.prepare('SELECT id, sha256, size FROM objects').all() as {
      id: string;
      sha256: string;
      size: number;
    }[]) {
      if (!/^[0-9a-f]{64}$/.test(row.sha256)) throw new Error(`object ${row.id} has no valid sha256`);
      objects.set(row.id, { sha256: row.sha256, size: Number(row.size) });
    }
    // Bytes no row names: an upload that crashed before its row committed, or what a reset, a restore
    // or a deletion left for the next start.
    const named = new Set<string>();
    for (const row of rows) {
      if (row.table === 'upload') named.add((row.value as { objectKey: string }).objectKey);
      if (row.table === 'voice') named.add((row.value as { audioId: string }).audioId);
    }
    const unused = [...objects.keys()].filter((id) => !named.has(id));
    if (unused.length > 0) {
      const remove = database.prepare('DELETE FROM objects WHERE id = ?');
      database.exec('BEGIN');
      for (const id of unused) {
        remove.run(id);
        objects.delete(id);
      }
      database.exec('COMMIT');
    }
    db = database;
    return { id: 0, rows, objects: [...objects] };
  } catch (error) {
    database.close();
    if (error instanceof Refusal) throw error;
    if (unmarked) throw new Refusal(notOurs(directory, dbPath));
    // One line: SQLite's integrity check reports several problems over several lines.
    const problem = (error as Error).message.replace(/\s*\n\s*/g, '; ');
    throw new Refusal(`${dbPath} cannot be read (${problem}); ${whatToDo(directory)}`);
  }
}

function prepared(database: DatabaseSync) {
  statements ??= {
    clear: database.prepare('DELETE FROM state WHERE tbl = ?'),
    remove: database.prepare('DELETE FROM state WHERE tbl = ? AND key = ?'),
    put: database.prepare('INSERT OR REPLACE INTO state (tbl, key, value) VALUES (?, ?, ?)'),
    all: database.prepare('SELECT tbl, key, value FROM state'),
    putObject: database.prepare('INSERT OR REPLACE INTO objects (id, sha256, size) VALUES (?, ?, ?)'),
    deleteObject: database.prepare('DELETE FROM objects WHERE id = ?'),
  };
  return statements;
}

/** Every write queued so far, in one transaction: durable (fsynced) when COMMIT returns. */
function flush(): void {
  scheduled = false;
  const batch = pending;
  pending = [];
  if (batch.length === 0) return;
  let error: string | undefined;
  try {
    if (!db) throw new Error('the state database is not open');
    const s = prepared(db);
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const write of batch) {
        const change = write.change;
        for (const table of change?.clear ?? []) s.clear.run(table);
        for (const { table, key } of change?.remove ?? []) s.remove.run(table, key);
        for (const { table, key, value } of change?.put ?? []) s.put.run(table, key, JSON.stringify(value));
        if (write.putObject)
          s.putObject.run(write.putObject.id, write.putObject.sha256, write.putObject.size);
        if (write.deleteObject !== undefined) s.deleteObject.run(write.deleteObject);
      }
      db.exec('COMMIT');
    } catch (failure) {
      // (isTransaction is not in every Node 22.)
      try {
        db.exec('ROLLBACK');
      } catch {
        // no transaction was left open
      }
      throw failure;
    }
  } catch (failure) {
    // The whole batch failed together: each of its requests is answered with the error.
    error = (failure as Error).message;
  }
  for (const write of batch) reply(error === undefined ? { id: write.id } : { id: write.id, error });
}

port.on('message', (request: DbRequest) => {
  switch (request.op) {
    case 'open':
      open(request.dbPath, request.directory, request.unmarked).then(
        (opened) => reply({ ...opened, id: request.id }),
        (error: unknown) => reply({ id: request.id, error: (error as Error).message }),
      );
      return;
    case 'write':
      pending.push(request);
      // Writes that arrive while this thread is busy wait in the port's queue: they are all read
      // before setImmediate runs, and share one commit.
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return;
    case 'read':
      flush();
      try {
        if (!db) throw new Error('the state database is not open');
        reply({ id: request.id, rows: readAll(db) });
      } catch (error) {
        reply({ id: request.id, error: (error as Error).message });
      }
      return;
    case 'close':
      flush();
      // Closing folds the WAL into state.db and releases the lock.
      db?.close();
      db = undefined;
      reply({ id: request.id });
      return;
  }
});
