import { hostname } from 'node:os';
import type { Pool, PoolClient } from 'pg';
import type { Storage } from '../../core/platform/storage.js';
import type { DecisionRules as Rules, StateDecisions } from '../../core/state/decisions.js';
import type { RequestLogEntry } from '../../core/state/request-log.js';
import type {
  SharedJournal,
  SharedJournalEntry,
  SharedStore,
  StateChange,
  StateRow,
  StateStore,
  StateTable,
} from '../../core/state/state-store.js';
import type { UploadRecord } from '../../core/state/uploads.js';
import type { VoiceRecord } from '../../core/state/voices.js';
import { StateDirError } from '../state-dir-error.js';
import { postgresStorage } from './postgres-storage.js';
import { ensureSchema } from './schema.js';
import { shownUrl } from './state-url.js';

/** The state of a mock kept in PostgreSQL: its rows at start, its store and its audio storage. */
export interface PostgresState {
  readonly rows: readonly StateRow[];
  readonly store: StateStore;
  readonly storage: Storage;
  /** Names this mock in the shared journal from now on (the server: its host and port, once it listens). */
  nameReplica(name: string): void;
}

/** Options of openPostgresState. */
export interface PostgresStateOptions {
  /** The name this mock's journal entries carry. Default: host name and process id. */
  readonly replica?: string;
}

/** Postgres error codes a transaction is tried again on: a serialization failure, a deadlock. */
const retried = new Set(['40001', '40P01']);

/** Runs `work` in one transaction of the given isolation, again (up to 20 times) when it lost a race. */
async function inTransaction<T>(
  pool: Pool,
  isolation: 'READ COMMITTED' | 'SERIALIZABLE',
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      const code = (error as { code?: string }).code ?? '';
      if (!retried.has(code) || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    } finally {
      client.release();
    }
  }
}

/**
 * Marks a change: every mock sees the state's version move (checked before each request), and is
 * told at commit (NOTIFY), so that it reads the state again before its next request arrives. A
 * synthesis moves the characters' version instead: the others then read only the characters.
 */
const bump = (client: PoolClient, which: 'state' | 'characters' = 'state') =>
  client.query(
    `WITH moved AS (UPDATE voice_kit.version SET n = n + 1 WHERE id = $1 RETURNING n)
       SELECT pg_notify('voice_kit_changed', n::text) FROM moved`,
    [which === 'state' ? 1 : 2],
  );

/** The versions as one token, `state:characters`. */
const versionSql = `SELECT string_agg(n::text, ':' ORDER BY id) AS v FROM voice_kit.version`;
const stateOf = (token: string | undefined) => token?.split(':')[0];

const voiceKey = (space: string, voiceId: string): string => JSON.stringify([space, voiceId]);

/**
 * A name as a text column holds it: PostgreSQL text cannot hold U+0000, which separates the parts of a
 * voice space, so it is written `\0` (and a backslash `\\`): one text per name, and back.
 */
const t = (name: string): string => name.replaceAll('\\', '\\\\').replaceAll('\u0000', '\\0');
const untext = (text: string): string =>
  text.replace(/\\(\\|0)/g, (_, c: string) => (c === '0' ? '\u0000' : '\\'));

/**
 * Opens the state of `--state-url postgres://…`: creates the schema on first use (schema.ts), and
 * answers with the rows held now, a StateStore whose `shared` part decides saves, uploads, deletes
 * and charges in transactions, and the audio storage (content-addressed, in the database). Several
 * mocks opened on one database are replicas of one service. `pg` is loaded here, on first use only.
 *
 * @example
 * const state = await openPostgresState('postgres://mock:secret@127.0.0.1:5432/mock');
 * const service = createMockService({ storage: state.storage, persistence: state });
 */
export async function openPostgresState(
  url: string,
  options: PostgresStateOptions = {},
): Promise<PostgresState> {
  const where = shownUrl(url);
  let pg: typeof import('pg').default;
  try {
    pg = (await import('pg')).default;
  } catch (error) {
    throw new StateDirError(`--state-url needs the pg package (${(error as Error).message}); npm install pg`);
  }
  // bigint columns (sequences, sizes, times in ms) stay exact as numbers up to 2^53.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await ensureSchema(client, where);
    } finally {
      client.release();
    }
    const rows = await readRows(pool);
    const listeners: (() => void)[] = [];
    const listener = await listen(pg, url, () => {
      for (const changed of listeners) changed();
    });
    const replica = { name: options.replica ?? `${hostname()}:${process.pid}` };
    const journal = sharedJournal(pool, replica);
    const shared: SharedStore = {
      decisions: (rules) => postgresDecisions(pool, rules),
      changedSince: async (known) => {
        if (known === undefined) return readState(pool);
        const now = (await pool.query<{ v: string }>(versionSql)).rows[0]?.v;
        if (now === known) return undefined;
        if (stateOf(now) !== stateOf(known)) return readState(pool);
        // Only syntheses counted characters: those alone, with the versions, in one statement.
        const read = await pool.query<{ v: string; c: [string, string][] }>(
          `SELECT (${versionSql}) AS v,
                  (SELECT coalesce(json_agg(json_build_array(account, characters)), '[]'::json)
                     FROM voice_kit.account) AS c`,
        );
        const row = read.rows[0];
        if (!row || stateOf(row.v) !== stateOf(known)) return readState(pool);
        return {
          version: row.v,
          characters: row.c.map(([account, characters]) => [untext(account), Number(characters)] as const),
        };
      },
      advanceClock: async (ms) => {
        await inTransaction(pool, 'READ COMMITTED', async (client) => {
          await client.query(
            `UPDATE voice_kit.meta SET value = to_jsonb(value::text::bigint + $1) WHERE key = 'clockAdvancedMs'`,
            [ms],
          );
          await bump(client);
        });
      },
      journal,
      onChange: (changed) => {
        listeners.push(changed);
      },
    };
    let closed: Promise<void> | undefined;
    const store: StateStore = {
      durable: true,
      commit: (change) => inTransaction(pool, 'SERIALIZABLE', (client) => applyChange(client, change)),
      read: () => readRows(pool),
      close: () => {
        const end = async () => {
          await listener.end().catch(() => {});
          await pool.end();
        };
        closed ??= journal.flush().then(end, end);
        return closed;
      },
      shared,
    };
    return {
      rows,
      store,
      storage: postgresStorage(pool),
      nameReplica: (name) => {
        replica.name = name;
      },
    };
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StateDirError) throw error;
    throw new StateDirError(`cannot use the database ${where}: ${(error as Error).message}`);
  }
}

/**
 * A connection of its own that LISTENs for the changes of other mocks. Only a hint: a lost
 * connection costs nothing but the head start (each request checks the version anyway).
 */
async function listen(
  pg: typeof import('pg').default,
  url: string,
  changed: () => void,
): Promise<{ end(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  client.on('notification', changed);
  await client.connect();
  await client.query('LISTEN voice_kit_changed');
  return client;
}

/** The version and every row, read in one snapshot of the database. */
async function readState(pool: Pool): Promise<{ version: string; rows: StateRow[] }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const version = (await client.query<{ v: string }>(versionSql)).rows[0]?.v ?? '';
    const rows = await rowsOf(client);
    await client.query('COMMIT');
    return { version, rows };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const readRows = async (pool: Pool): Promise<StateRow[]> => (await readState(pool)).rows;

/** The state's rows as every store gives them (persisted-rows.ts reads them). */
async function rowsOf(client: PoolClient): Promise<StateRow[]> {
  const rows: StateRow[] = [];
  const voices = await client.query<{ seq: string; record: VoiceRecord }>(
    'SELECT seq, record FROM voice_kit.voice ORDER BY seq',
  );
  for (const { seq, record } of voices.rows)
    rows.push({
      table: 'voice',
      key: voiceKey(record.space, record.voiceId),
      value: { ...record, sequence: Number(seq) },
    });
  const deleted = await client.query<{ space: string; voice_id: string; seq: string }>(
    'SELECT space, voice_id, seq FROM voice_kit.deleted_voice',
  );
  for (const { space, voice_id, seq } of deleted.rows)
    rows.push({ table: 'deleted', key: voiceKey(untext(space), untext(voice_id)), value: Number(seq) });
  const uploads = await client.query<{ record: UploadRecord }>('SELECT record FROM voice_kit.upload');
  for (const { record } of uploads.rows) rows.push({ table: 'upload', key: record.objectKey, value: record });
  const rates = await client.query<{ user_id: string; times: string[] }>(
    'SELECT user_id, array_agg(at_ms ORDER BY at_ms) AS times FROM voice_kit.rate_event GROUP BY user_id',
  );
  for (const { user_id, times } of rates.rows)
    rows.push({ table: 'rate', key: untext(user_id), value: times.map(Number) });
  const charged = await client.query<{ account: string; voice_id: string; created_at: string }>(
    'SELECT account, voice_id, created_at FROM voice_kit.charged_creation ORDER BY n',
  );
  const creations = new Map<string, { voice_id: string; created_at: number }[]>();
  for (const { account, voice_id, created_at } of charged.rows)
    creations.set(account, [
      ...(creations.get(account) ?? []),
      { voice_id: untext(voice_id), created_at: Number(created_at) },
    ]);
  const accounts = await client.query<{ account: string; free_used: number; characters: string }>(
    'SELECT account, free_used, characters FROM voice_kit.account',
  );
  for (const { account, free_used, characters } of accounts.rows)
    rows.push({
      table: 'ledger',
      key: untext(account),
      value: {
        freeUsesConsumed: free_used,
        chargedCreations: creations.get(account) ?? [],
        synthesizedCharacters: Number(characters),
      },
    });
  const meta = await client.query<{ key: string; value: unknown }>(
    `SELECT key, value FROM voice_kit.meta WHERE key IN ('clockAdvancedMs', 'urlSecret')`,
  );
  for (const { key, value } of meta.rows) rows.push({ table: 'meta', key, value });
  const sequences = await client.query<{ upload: string; voice: string }>(
    `SELECT (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM voice_kit.upload_seq) AS upload,
            (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM voice_kit.voice_seq) AS voice`,
  );
  const sequence = sequences.rows[0];
  rows.push({ table: 'meta', key: 'uploadSequence', value: Number(sequence?.upload ?? 0) });
  rows.push({ table: 'meta', key: 'voiceSequence', value: Number(sequence?.voice ?? 0) });
  return rows;
}

/** What emptying one of the store's tables deletes. */
const cleared: Record<StateTable, string[]> = {
  upload: ['DELETE FROM voice_kit.upload'],
  voice: ['DELETE FROM voice_kit.voice'],
  deleted: ['DELETE FROM voice_kit.deleted_voice'],
  rate: ['DELETE FROM voice_kit.rate_event'],
  ledger: ['DELETE FROM voice_kit.charged_creation', 'DELETE FROM voice_kit.account'],
  characters: ['UPDATE voice_kit.account SET characters = 0'],
  meta: [],
};

/** A StateChange (a reset, a restore, the clock, a rate reset…) applied to the tables, then the version moved. */
async function applyChange(client: PoolClient, change: StateChange): Promise<void> {
  for (const table of change.clear ?? []) for (const sql of cleared[table]) await client.query(sql);
  for (const { table, key } of change.remove ?? []) await removeRow(client, table, key);
  for (const row of change.put ?? []) await putRow(client, row);
  await bump(client);
}

async function removeRow(client: PoolClient, table: StateTable, key: string): Promise<void> {
  if (table === 'voice' || table === 'deleted') {
    const [space, id] = JSON.parse(key) as [string, string];
    const name = table === 'voice' ? 'voice' : 'deleted_voice';
    await client.query(`DELETE FROM voice_kit.${name} WHERE space = $1 AND voice_id = $2`, [t(space), t(id)]);
  } else if (table === 'upload') {
    await client.query('DELETE FROM voice_kit.upload WHERE object_key = $1', [t(key)]);
  } else if (table === 'rate') {
    await client.query('DELETE FROM voice_kit.rate_event WHERE user_id = $1', [t(key)]);
  } else if (table === 'ledger') {
    await client.query('DELETE FROM voice_kit.charged_creation WHERE account = $1', [t(key)]);
    await client.query('DELETE FROM voice_kit.account WHERE account = $1', [t(key)]);
  } else if (table === 'characters') {
    await client.query('UPDATE voice_kit.account SET characters = 0 WHERE account = $1', [t(key)]);
  } else {
    await client.query('DELETE FROM voice_kit.meta WHERE key = $1', [key]);
  }
}

/**
 * A sequence moved so that its next value follows `last`, never back: after a reset or a restore an
 * object key is never handed out again, so that no replica's new upload takes the name of bytes a
 * reset on another replica is removing.
 */
const setSequence = (client: PoolClient, name: string, last: number) =>
  client.query(
    `SELECT setval('voice_kit.${name}', greatest(v, 1), v > 0)
       FROM (SELECT greatest($1::bigint, CASE WHEN is_called THEN last_value ELSE 0 END) AS v
               FROM voice_kit.${name}) AS s`,
    [last],
  );

async function putRow(client: PoolClient, { table, key, value }: StateRow): Promise<void> {
  switch (table) {
    case 'voice': {
      const { sequence, ...record } = value as VoiceRecord;
      await client.query(
        `INSERT INTO voice_kit.voice (space, voice_id, seq, record) VALUES ($1, $2, $3, $4)
           ON CONFLICT (space, voice_id) DO UPDATE SET seq = EXCLUDED.seq, record = EXCLUDED.record`,
        [t(record.space), t(record.voiceId), sequence, JSON.stringify(record)],
      );
      return;
    }
    case 'deleted': {
      const [space, id] = JSON.parse(key) as [string, string];
      await client.query(
        `INSERT INTO voice_kit.deleted_voice (space, voice_id, seq) VALUES ($1, $2, $3)
           ON CONFLICT (space, voice_id) DO UPDATE SET seq = EXCLUDED.seq`,
        [t(space), t(id), value],
      );
      return;
    }
    case 'upload': {
      const record = value as UploadRecord;
      await client.query(
        `INSERT INTO voice_kit.upload (object_key, user_id, record) VALUES ($1, $2, $3)
           ON CONFLICT (object_key) DO UPDATE SET user_id = EXCLUDED.user_id, record = EXCLUDED.record`,
        [t(record.objectKey), t(record.user), JSON.stringify(record)],
      );
      return;
    }
    case 'rate':
      await client.query('DELETE FROM voice_kit.rate_event WHERE user_id = $1', [t(key)]);
      await client.query(
        'INSERT INTO voice_kit.rate_event (user_id, at_ms) SELECT $1, unnest($2::bigint[])',
        [t(key), value],
      );
      return;
    case 'ledger': {
      const usage = value as {
        freeUsesConsumed: number;
        chargedCreations: { voice_id: string; created_at: number }[];
        synthesizedCharacters: number;
      };
      await client.query(
        `INSERT INTO voice_kit.account (account, free_used, characters) VALUES ($1, $2, $3)
           ON CONFLICT (account) DO UPDATE SET free_used = EXCLUDED.free_used, characters = EXCLUDED.characters`,
        [t(key), usage.freeUsesConsumed, usage.synthesizedCharacters],
      );
      await client.query('DELETE FROM voice_kit.charged_creation WHERE account = $1', [t(key)]);
      for (const { voice_id, created_at } of usage.chargedCreations)
        await client.query(
          'INSERT INTO voice_kit.charged_creation (account, voice_id, created_at) VALUES ($1, $2, $3)',
          [t(key), t(voice_id), created_at],
        );
      return;
    }
    case 'characters':
      await client.query(
        `INSERT INTO voice_kit.account (account, characters) VALUES ($1, $2)
           ON CONFLICT (account) DO UPDATE SET characters = EXCLUDED.characters`,
        [t(key), value],
      );
      return;
    case 'meta':
      if (key === 'uploadSequence') await setSequence(client, 'upload_seq', value as number);
      else if (key === 'voiceSequence') await setSequence(client, 'voice_seq', value as number);
      else
        await client.query(
          `INSERT INTO voice_kit.meta (key, value) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [key, JSON.stringify(value)],
        );
      return;
  }
}

/** Seconds until the oldest counted upload leaves the window; at least 1. */
const retryAfter = (oldest: number | undefined, rules: Rules, nowMs: number): number =>
  oldest === undefined ? 1 : Math.max(1, Math.ceil((oldest + rules.uploadWindowMs - nowMs) / 1000));

/** The uploads of a user in the window, and the oldest of them. */
async function windowOf(
  client: Pool | PoolClient,
  user: string,
  rules: Rules,
  nowMs: number,
): Promise<{ count: number; oldest: number | undefined }> {
  const result = await client.query<{ count: string; oldest: string | null }>(
    'SELECT count(*) AS count, min(at_ms) AS oldest FROM voice_kit.rate_event WHERE user_id = $1 AND at_ms > $2',
    [t(user), nowMs - rules.uploadWindowMs],
  );
  const row = result.rows[0];
  return { count: Number(row?.count ?? 0), oldest: row?.oldest == null ? undefined : Number(row.oldest) };
}

/**
 * The decisions, each one transaction. A save inserts first (READ COMMITTED): the primary key makes
 * one of racing saves of an id win, the others find it taken; then a free use is spent while any
 * remain (`free_used < N` in the UPDATE's WHERE), else a charged creation is recorded. An upload
 * locks its user's row (FOR UPDATE), so that the window is counted and the upload added by one
 * transaction at a time, whichever mock runs it.
 */
function postgresDecisions(pool: Pool, rules: Rules): StateDecisions {
  const saveVoice = (record: Omit<VoiceRecord, 'sequence'>) =>
    inTransaction(pool, 'READ COMMITTED', async (client) => {
      const inserted = await client.query<{ seq: string }>(
        `INSERT INTO voice_kit.voice (space, voice_id, seq, record)
           VALUES ($1, $2, nextval('voice_kit.voice_seq'), $3)
           ON CONFLICT (space, voice_id) DO NOTHING RETURNING seq`,
        [t(record.space), t(record.voiceId), JSON.stringify(record)],
      );
      const seq = inserted.rows[0]?.seq;
      if (seq === undefined) return undefined;
      await chargeCreation(client, record, rules);
      await bump(client);
      return { ...record, sequence: Number(seq) } as VoiceRecord;
    });
  return {
    claimVoice: async (space, voiceId) => {
      const found = await pool.query('SELECT 1 FROM voice_kit.voice WHERE space = $1 AND voice_id = $2', [
        t(space),
        t(voiceId),
      ]);
      if (found.rowCount) return undefined;
      return { save: saveVoice, release: () => {} };
    },
    takeUpload: async (user, nowMs) => {
      // A first look without a lock: a spent quota is refused before the body is read.
      const { count, oldest } = await windowOf(pool, user, rules, nowMs);
      if (count >= rules.uploadsPerHour) return { retryAfterSeconds: retryAfter(oldest, rules, nowMs) };
      return {
        commit: (record, at) =>
          inTransaction(pool, 'READ COMMITTED', async (client) => {
            await client.query(
              'INSERT INTO voice_kit.rate_user (user_id) VALUES ($1) ON CONFLICT DO NOTHING',
              [t(user)],
            );
            await client.query('SELECT 1 FROM voice_kit.rate_user WHERE user_id = $1 FOR UPDATE', [t(user)]);
            const window = await windowOf(client, user, rules, at);
            if (window.count >= rules.uploadsPerHour)
              return { retryAfterSeconds: retryAfter(window.oldest, rules, at) };
            await client.query('DELETE FROM voice_kit.rate_event WHERE user_id = $1 AND at_ms <= $2', [
              t(user),
              at - rules.uploadWindowMs,
            ]);
            await client.query('INSERT INTO voice_kit.rate_event (user_id, at_ms) VALUES ($1, $2)', [
              t(user),
              at,
            ]);
            await client.query(
              'INSERT INTO voice_kit.upload (object_key, user_id, record) VALUES ($1, $2, $3)',
              [t(record.objectKey), t(record.user), JSON.stringify(record)],
            );
            await bump(client);
            return undefined;
          }),
        release: () => {},
      };
    },
    nextUploadSequence: async () =>
      Number((await pool.query<{ n: string }>(`SELECT nextval('voice_kit.upload_seq') AS n`)).rows[0]?.n),
    deleteVoice: (space, voiceId) =>
      inTransaction(pool, 'READ COMMITTED', async (client) => {
        const removed = await client.query<{ seq: string; record: VoiceRecord }>(
          'DELETE FROM voice_kit.voice WHERE space = $1 AND voice_id = $2 RETURNING seq, record',
          [t(space), t(voiceId)],
        );
        const row = removed.rows[0];
        if (!row) return undefined;
        await client.query(
          `INSERT INTO voice_kit.deleted_voice (space, voice_id, seq) VALUES ($1, $2, $3)
             ON CONFLICT (space, voice_id) DO UPDATE SET seq = EXCLUDED.seq`,
          [t(space), t(voiceId), row.seq],
        );
        await bump(client);
        return { ...row.record, sequence: Number(row.seq) };
      }),
    chargeCharacters: (account, characters) =>
      inTransaction(pool, 'READ COMMITTED', async (client) => {
        await client.query(
          `INSERT INTO voice_kit.account (account, characters) VALUES ($1, $2)
             ON CONFLICT (account) DO UPDATE SET characters = voice_kit.account.characters + EXCLUDED.characters`,
          [t(account), characters],
        );
        await bump(client, 'characters');
      }),
    addVoices: (records) =>
      inTransaction(pool, 'READ COMMITTED', async (client) => {
        const made: VoiceRecord[] = [];
        for (const record of records) {
          const inserted = await client.query<{ seq: string }>(
            `INSERT INTO voice_kit.voice (space, voice_id, seq, record)
               VALUES ($1, $2, nextval('voice_kit.voice_seq'), $3)
               ON CONFLICT (space, voice_id) DO NOTHING RETURNING seq`,
            [t(record.space), t(record.voiceId), JSON.stringify(record)],
          );
          const seq = inserted.rows[0]?.seq;
          // Saved meanwhile on another replica (or populated by one starting beside this one): kept as it is.
          if (seq !== undefined) made.push({ ...record, sequence: Number(seq) } as VoiceRecord);
        }
        if (made.length > 0) await bump(client);
        return made;
      }),
  };
}

/** A free use of the account while any remain, else a charged creation (§4.2 rule 3). */
async function chargeCreation(
  client: PoolClient,
  record: Omit<VoiceRecord, 'sequence'>,
  rules: Rules,
): Promise<void> {
  await client.query('INSERT INTO voice_kit.account (account) VALUES ($1) ON CONFLICT DO NOTHING', [
    t(record.account),
  ]);
  const free = await client.query(
    'UPDATE voice_kit.account SET free_used = free_used + 1 WHERE account = $1 AND free_used < $2',
    [t(record.account), rules.freeCloneUses],
  );
  if (free.rowCount) return;
  await client.query(
    'INSERT INTO voice_kit.charged_creation (account, voice_id, created_at) VALUES ($1, $2, $3)',
    [t(record.account), t(record.voiceId), record.createdAt],
  );
}

/**
 * The journal of every mock of the database: this mock's entries are written in batches, one
 * statement a turn of the event loop, never delaying an answer; a listing writes this mock's
 * pending entries first. The table keeps the newest 10,000 entries.
 */
function sharedJournal(
  pool: Pool,
  replica: { readonly name: string },
): SharedJournal & { flush(): Promise<void> } {
  let pending: RequestLogEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  let writes = 0;
  const write = (): Promise<void> => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return writing;
    writing = writing.then(async () => {
      try {
        await pool.query(
          `INSERT INTO voice_kit.journal (replica, entry)
             SELECT $1, e FROM json_array_elements($2::json) WITH ORDINALITY AS t(e, i) ORDER BY i`,
          [replica.name, JSON.stringify(batch)],
        );
        if (++writes % 100 === 0)
          await pool.query(
            'DELETE FROM voice_kit.journal WHERE seq <= (SELECT max(seq) - 10000 FROM voice_kit.journal)',
          );
      } catch {
        // The journal never costs an answer: entries that cannot be written are dropped.
      }
    });
    return writing;
  };
  return {
    append: (entry) => {
      pending.push(entry);
      if (scheduled) return;
      scheduled = true;
      setImmediate(write);
    },
    list: async (after, limit) => {
      await write();
      const result = await pool.query<{ seq: string; replica: string; entry: RequestLogEntry }>(
        `SELECT seq, replica, entry FROM
           (SELECT seq, replica, entry FROM voice_kit.journal WHERE seq > $1 ORDER BY seq DESC LIMIT $2) AS newest
           ORDER BY seq`,
        [after, limit],
      );
      return result.rows.map(
        ({ seq, replica, entry }): SharedJournalEntry => ({ ...entry, seq: Number(seq), replica }),
      );
    },
    clear: async () => {
      await write();
      const result = await pool.query('DELETE FROM voice_kit.journal');
      return result.rowCount ?? 0;
    },
    flush: write,
  };
}
