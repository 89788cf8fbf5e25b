import type { DecisionRules, StateDecisions } from './decisions.js';
import type { RequestLogEntry } from './request-log.js';

/**
 * Where the mock's state is kept beyond memory. A mock alone decides in memory, synchronously (one
 * winner of racing saves, exact quotas: decisions.ts), and hands each change to a StateStore, whose
 * commit the operation awaits before its answer is built: with a durable store an answer is sent only
 * once what it says is on disk. The in-memory store keeps nothing and costs nothing; the Node
 * adapter's SQLite store (mocks/node/state-dir.ts) keeps a state directory. A store shared by several
 * mocks (replicas: the Node adapter's PostgreSQL store) decides itself (`shared`), and each mock's
 * memory is a copy of it, brought up to date before each request.
 *
 * The state is kept as rows of a few tables, each row a JSON value under a key.
 */

/**
 * upload: object key → UploadRecord; voice and deleted: [space, id] → VoiceRecord, or the sequence a
 * deleted voice had; rate: user → upload times (ms); ledger: account → AccountUsage; characters:
 * account → synthesized characters (apart, so that a synthesis writes one number, not the account's
 * whole list of charged creations); meta: sequences, the clock's advance, the voice_url secret.
 */
export type StateTable = 'upload' | 'voice' | 'deleted' | 'rate' | 'ledger' | 'characters' | 'meta';

export const stateTables: readonly StateTable[] = [
  'upload',
  'voice',
  'deleted',
  'rate',
  'ledger',
  'characters',
  'meta',
];

export interface StateRow {
  readonly table: StateTable;
  readonly key: string;
  readonly value: unknown;
}

/** One change, applied atomically: tables emptied first, then rows removed, then rows put. */
export interface StateChange {
  readonly clear?: readonly StateTable[];
  readonly remove?: readonly { readonly table: StateTable; readonly key: string }[];
  readonly put?: readonly StateRow[];
}

export interface StateStore {
  /** True when a commit survives the process: the service then persists every change it makes. */
  readonly durable: boolean;
  /** Resolves once the change is durable; rejects when it could not be written (nothing of it kept). */
  commit(change: StateChange): Promise<void>;
  /** Every row as stored now: what the service loads at start, and rolls back to after a failed commit. */
  read(): Promise<StateRow[]>;
  close(): Promise<void>;
  /** Present when several mocks share this store: it decides, and keeps the journal of them all. */
  readonly shared?: SharedStore;
}

/** What a store shared by several mocks does beyond keeping rows. */
export interface SharedStore {
  /** The decisions under the mock's rules. */
  decisions(rules: DecisionRules): StateDecisions;
  /**
   * What changed since `version` (undefined at start: everything): every row as stored now, or only
   * the accounts' synthesized characters when nothing else changed (each synthesis counts its own);
   * undefined when nothing did. `version` is the store's own token.
   */
  changedSince(version: string | undefined): Promise<SharedChange | undefined>;
  /** Calls `changed` when another mock may have changed the state: a hint to read it early. */
  onChange?(changed: () => void): void;
  /** Moves the shared clock forward by `ms` (every mock of the store follows). */
  advanceClock(ms: number): Promise<void>;
  readonly journal: SharedJournal;
}

/** The state as a shared store holds it now: all of it, or the characters counted of each account. */
export type SharedChange =
  | { readonly version: string; readonly rows: StateRow[] }
  | { readonly version: string; readonly characters: readonly (readonly [string, number])[] };

/** A journal entry as the shared journal lists it: numbered by the store, with the mock that answered. */
export type SharedJournalEntry = RequestLogEntry & { replica: string };

/** The request journal of every mock of a shared store. */
export interface SharedJournal {
  /** Adds an entry of this mock (written soon after, in order; never delays the answer). */
  append(entry: RequestLogEntry): void;
  /** The most recent entries (at most the log's size), oldest first; only those numbered above `after`. */
  list(after: number, limit: number): Promise<SharedJournalEntry[]>;
  clear(): Promise<number>;
}

const done = Promise.resolve();

/**
 * The store of a mock without a state directory: keeps nothing, commits at once.
 *
 * @example
 * createMockService({ store: memoryStore() }); // the default
 */
export function memoryStore(): StateStore {
  return {
    durable: false,
    commit: () => done,
    read: async () => [],
    close: async () => {},
  };
}
