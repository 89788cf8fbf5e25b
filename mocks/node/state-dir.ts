import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Storage, StorageWriter } from '../core/platform/storage.js';
import type { StateRow, StateStore } from '../core/state/state-store.js';
import { type StateDb, startStateDb } from './state-db.js';
import { StateDirError } from './state-dir-error.js';
import { collectGarbage, inspectStateDir, writeMarker } from './state-dir-layout.js';

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

/** Options of openStateDir. */
export interface OpenStateDirOptions {
  /**
   * Start without the entries whose audio file is missing or damaged (each listed in `dropped`), the
   * damaged files moved into `<dir>/damaged/`; without it such a dir is refused.
   */
  readonly repair?: boolean;
}

/** A recording a row names that is missing or damaged, and what names it. */
export interface DroppedEntry {
  readonly file: string;
  readonly problem: string;
  readonly voiceIds: readonly string[];
  readonly uploadKeys: readonly string[];
}

/**
 * Opens (creating it when missing) the state directory of `voice-kit mock --state-dir`:
 * `voice-kit-state.json` marks it as ours; `state.db` (SQLite, WAL, synchronous=FULL, locked for this
 * process alone) holds every row of the state; `audio/<sha256>` holds the audio bytes,
 * content-addressed. At open it checks that the directory is ours (state-dir-layout.ts: a directory
 * holding anything else is refused before anything is written or removed), takes the lock, checks
 * the layout version and the database, removes what a crash left half-made (temp files, recordings
 * no row names), and verifies the size and SHA-256 of every audio file a row names: anything
 * unreadable is a StateDirError naming the file and the voices that use it, never an empty mock
 * (or, with `repair`, a start without those entries).
 *
 * @example
 * const dir = await openStateDir('.voice-kit-state');
 * const service = createMockService({ storage: dir.storage, persistence: dir });
 */
export async function openStateDir(
  path: string,
  options: OpenStateDirOptions = {},
): Promise<StateDir & { readonly dropped: readonly DroppedEntry[] }> {
  const directory = resolve(path);
  const audioDir = join(directory, 'audio');
  const tempDir = join(audioDir, 'tmp');
  const dbPath = join(directory, 'state.db');
  const found = await inspectStateDir(directory);
  try {
    await mkdir(directory, { recursive: true });
    if (found === 'new') await writeMarker(directory);
    await mkdir(tempDir, { recursive: true });
  } catch (error) {
    throw new StateDirError(`cannot create the state dir ${directory}: ${(error as Error).message}`);
  }
  await probeWritable(directory, audioDir, tempDir);
  const db = await startStateDb(dbPath, directory, found === 'unmarked-database');
  try {
    // The database said it is ours: the directory is marked from now on.
    if (found === 'unmarked-database') await writeMarker(directory);
    const { objects } = db.opened;
    await collectGarbage(audioDir, new Set([...objects.values()].map((o) => o.sha256)));
    const damage = await findDamage(db.opened.rows, objects, audioDir, directory);
    if (damage.length > 0 && !options.repair) throw damageError(damage[0] as Damage, directory);
    const rows = damage.length > 0 ? await dropDamaged(db, damage, directory) : db.opened.rows;
    return {
      directory,
      rows,
      dropped: damage.map(({ file, problem, voiceIds, uploadKeys }) => ({
        file,
        problem,
        voiceIds,
        uploadKeys,
      })),
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

/** A recording that is missing or damaged: its file, what is wrong, the storage ids and rows naming it. */
interface Damage extends DroppedEntry {
  readonly sha256: string;
  readonly ids: readonly string[];
}

/** What the state's rows say of each storage id: the voices and uploads that name it. */
function namesOf(rows: readonly StateRow[]): Map<string, { voiceIds: string[]; uploadKeys: string[] }> {
  const names = new Map<string, { voiceIds: string[]; uploadKeys: string[] }>();
  const of = (id: string) => {
    const entry = names.get(id) ?? { voiceIds: [], uploadKeys: [] };
    names.set(id, entry);
    return entry;
  };
  for (const row of rows) {
    if (row.table === 'upload') of((row.value as { objectKey: string }).objectKey).uploadKeys.push(row.key);
    if (row.table === 'voice') {
      const voice = row.value as { audioId: string; voiceId: string };
      of(voice.audioId).voiceIds.push(voice.voiceId);
    }
  }
  return names;
}

/** "voice anna_calm, upload obj_12" (what a person knows the entry by), else the storage id. */
const ownersOf = (damage: Pick<Damage, 'voiceIds' | 'uploadKeys' | 'ids'>): string => {
  const parts = [
    ...(damage.voiceIds.length > 0 ? [`voice ${damage.voiceIds.join(', ')}`] : []),
    ...(damage.uploadKeys.length > 0 ? [`upload ${damage.uploadKeys.join(', ')}`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : damage.ids.join(', ');
};

function damageError(damage: Damage, directory: string): StateDirError {
  return new StateDirError(
    `the audio file ${damage.file} (of ${ownersOf(damage)}) ${damage.problem}; start with --repair to drop what uses it (it is moved to ${join(directory, 'damaged')}), or ${whatToDo(directory)}`,
  );
}

/**
 * Every audio file a row names must be there with its size and its SHA-256: the ones that are not are
 * answered (a file this user cannot read stops the start at once). An id with no object row is no
 * damage: a restored snapshot may name bytes that were gone already (they are kept only while the
 * mock that took it runs); reading them answers as after a reset, as in memory.
 */
async function findDamage(
  rows: readonly StateRow[],
  objects: ReadonlyMap<string, StoredObject>,
  audioDir: string,
  directory: string,
): Promise<Damage[]> {
  const names = namesOf(rows);
  const bySha = new Map<string, string[]>();
  for (const id of names.keys()) {
    const object = objects.get(id);
    if (object) bySha.set(object.sha256, [...(bySha.get(object.sha256) ?? []), id]);
  }
  const damage: Damage[] = [];
  for (const [sha256, ids] of bySha) {
    const expected = (objects.get(ids[0] as string) as StoredObject).size;
    const file = join(audioDir, sha256);
    const problem = await problemOf(file, sha256, expected, directory, () =>
      ownersOf({ ids, ...named(ids, names) }),
    );
    if (problem) damage.push({ file, problem, sha256, ids, ...named(ids, names) });
  }
  return damage;
}

const named = (ids: readonly string[], names: ReturnType<typeof namesOf>) => ({
  voiceIds: ids.flatMap((id) => names.get(id)?.voiceIds ?? []),
  uploadKeys: ids.flatMap((id) => names.get(id)?.uploadKeys ?? []),
});

/** What is wrong with one recording, or undefined; a file that cannot be read throws. */
async function problemOf(
  file: string,
  sha256: string,
  expected: number,
  directory: string,
  owner: () => string,
): Promise<string | undefined> {
  let size: number;
  let hash: string | undefined;
  try {
    size = (await stat(file)).size;
    // Hashed only when the size is right: a wrong size says enough.
    if (size === expected) hash = await sha256Of(file);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'is missing';
    throw new StateDirError(
      `the audio file ${file} (of ${owner()}) cannot be read (${(error as Error).message}); give this user read access to ${directory}, or ${whatToDo(directory)}`,
    );
  }
  if (size !== expected) return `is damaged: its size is ${size} bytes, not ${expected}`;
  if (hash !== sha256) return 'is damaged: its SHA-256 does not match its name';
  return undefined;
}

/**
 * --repair: the rows naming a damaged recording are removed (one commit), the recording moved into
 * `<dir>/damaged/` (kept for whoever wants to look at it); every other row stays as it was.
 */
async function dropDamaged(db: StateDb, damage: readonly Damage[], directory: string): Promise<StateRow[]> {
  const ids = new Set(damage.flatMap((d) => d.ids));
  const dropped = (row: StateRow) =>
    (row.table === 'upload' && ids.has((row.value as { objectKey: string }).objectKey)) ||
    (row.table === 'voice' && ids.has((row.value as { audioId: string }).audioId));
  const removed = db.opened.rows.filter(dropped);
  await db.write({ change: { remove: removed.map(({ table, key }) => ({ table, key })) } });
  for (const id of ids) {
    await db.write({ deleteObject: id });
    db.opened.objects.delete(id);
  }
  const aside = join(directory, 'damaged');
  await mkdir(aside, { recursive: true });
  for (const { file, sha256 } of damage) {
    await rename(file, join(aside, sha256)).catch((error: unknown) => {
      if (!isErrno(error, 'ENOENT')) throw error;
    });
  }
  return db.opened.rows.filter((row) => !dropped(row));
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
