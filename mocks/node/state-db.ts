import { Worker } from 'node:worker_threads';
import type { StateRow } from '../core/state/state-store.js';
import type { DbReply, DbRequest } from './state-db-worker.js';
import { StateDirError } from './state-dir-error.js';

type Write = Omit<Extract<DbRequest, { op: 'write' }>, 'id' | 'op'>;
/** A request before it has an id (each member of the union on its own). */
type Unnumbered<R = DbRequest> = R extends DbRequest ? Omit<R, 'id'> : never;

/** The database of a state dir, owned by its worker thread (state-db-worker.ts). */
export interface StateDb {
  /** What was stored at open: the state rows, and storage id → audio file of the objects table. */
  readonly opened: {
    readonly rows: StateRow[];
    readonly objects: Map<string, { sha256: string; size: number }>;
  };
  /** Resolves once the write is durable; writes made meanwhile share its commit. */
  write(write: Write): Promise<void>;
  read(): Promise<StateRow[]>;
  close(): Promise<void>;
}

/**
 * The worker's module: the built .js beside this file, or under tsx / vitest the .ts source, which
 * the thread then loads with tsx (a development dependency; the published package runs the .js).
 */
function workerOf(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './state-db-worker.ts' : './state-db-worker.js', import.meta.url);
  return new Worker(url, fromSource ? { execArgv: [...process.execArgv, '--import', 'tsx'] } : {});
}

/**
 * Starts the database thread of a state dir and opens `dbPath` there (locked, checked, see
 * state-db-worker.ts); rejects with a StateDirError naming the file when it cannot be used.
 *
 * @example
 * const db = await startStateDb('/srv/state/state.db', '/srv/state');
 */
export async function startStateDb(dbPath: string, directory: string, unmarked = false): Promise<StateDb> {
  const worker = workerOf();
  worker.unref();
  let next = 1;
  const waiting = new Map<number, (reply: DbReply) => void>();
  let failure: Error | undefined;
  worker.on('message', (reply: DbReply) => {
    const resolve = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    resolve?.(reply);
  });
  const fail = (error: Error) => {
    failure = error;
    for (const resolve of waiting.values()) resolve({ id: 0, error: error.message });
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the state database thread has stopped')));
  const ask = (request: Unnumbered): Promise<DbReply> => {
    if (failure) return Promise.resolve({ id: 0, error: failure.message });
    const id = next++;
    return new Promise((resolve) => {
      // While an answer is awaited the thread keeps the process alive (a script's last write must
      // not be cut short); idle, it never does.
      if (waiting.size === 0) worker.ref();
      waiting.set(id, resolve);
      worker.postMessage({ ...request, id });
    });
  };
  const opened = await ask({ op: 'open', dbPath, directory, unmarked });
  if (opened.error !== undefined) {
    await worker.terminate();
    throw new StateDirError(opened.error);
  }
  let closed: Promise<void> | undefined;
  return {
    opened: { rows: opened.rows ?? [], objects: new Map(opened.objects) },
    async write(write) {
      const reply = await ask({ op: 'write', ...write });
      if (reply.error !== undefined) throw new Error(reply.error);
    },
    async read() {
      const reply = await ask({ op: 'read' });
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply.rows ?? [];
    },
    close() {
      closed ??= ask({ op: 'close' }).then(async () => {
        await worker.terminate();
      });
      return closed;
    },
  };
}
