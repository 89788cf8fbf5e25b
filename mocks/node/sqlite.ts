import { StateDirError } from './state-dir-error.js';

export type SqliteModule = typeof import('node:sqlite');

let loaded: SqliteModule | undefined;

/**
 * Node's built-in SQLite (`node:sqlite`), loaded on first use. Only its own ExperimentalWarning is kept
 * off the user's screen (Node prints one when the module loads): every other warning passes as usual.
 * Node 22.12 has the module only behind --experimental-sqlite: there a state dir is refused with a
 * message naming the versions that have it.
 *
 * @example
 * const { DatabaseSync } = await loadSqlite();
 */
export async function loadSqlite(): Promise<SqliteModule> {
  if (loaded) return loaded;
  try {
    loaded = await withoutSqliteWarning(() => import('node:sqlite'));
    return loaded;
  } catch (error) {
    throw new StateDirError(
      `--state-dir needs Node's built-in SQLite (node:sqlite), which this Node ${process.version} does not offer without a flag (${(error as Error).message}); use Node 22.13 or newer, or run Node 22.12 with --experimental-sqlite`,
    );
  }
}

/**
 * Runs `load` with SQLite's ExperimentalWarning dropped; every other warning is emitted as usual.
 *
 * @example
 * await withoutSqliteWarning(() => import('node:sqlite'));
 */
export async function withoutSqliteWarning<T>(load: () => Promise<T>): Promise<T> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function quiet(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const options = rest[0] as string | { type?: string } | undefined;
    const type =
      typeof warning !== 'string' && warning.name !== 'Error'
        ? warning.name
        : typeof options === 'string'
          ? options
          : options?.type;
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emitWarning;
  }
}
