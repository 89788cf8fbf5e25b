import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { StateDirError } from '../state-dir-error.js';

/**
 * The tables of a mock state in PostgreSQL (docs/replicas.md), in a schema of their own so that the
 * database may hold anything else. Created by the first mock to start; `meta.schemaVersion` is the
 * layout, and a mock refuses a newer one. Two mocks starting at once take turns on an advisory lock.
 */
export const schemaVersion = 1;

/** Any number, the same in every mock: the advisory lock of the schema's creation. */
const schemaLock = 0x766b_7374; // "vkst"

const ddl = `
CREATE SCHEMA IF NOT EXISTS voice_kit;
-- Names (spaces, ids, users, accounts) are text with U+0000 written \\0; records are json, not
-- jsonb, which cannot hold U+0000 (a voice space has it).
CREATE TABLE IF NOT EXISTS voice_kit.meta (key text PRIMARY KEY, value jsonb NOT NULL);
-- version 1: the state's, moved by every change but a synthesis; 2: the characters', by a synthesis.
CREATE TABLE IF NOT EXISTS voice_kit.version (id int PRIMARY KEY CHECK (id IN (1, 2)), n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS voice_kit.voice (
  space text NOT NULL, voice_id text NOT NULL, seq bigint NOT NULL, record json NOT NULL,
  PRIMARY KEY (space, voice_id));
CREATE TABLE IF NOT EXISTS voice_kit.deleted_voice (
  space text NOT NULL, voice_id text NOT NULL, seq bigint NOT NULL, PRIMARY KEY (space, voice_id));
CREATE TABLE IF NOT EXISTS voice_kit.upload (
  object_key text PRIMARY KEY, user_id text NOT NULL, record json NOT NULL);
CREATE TABLE IF NOT EXISTS voice_kit.account (
  account text PRIMARY KEY, free_used integer NOT NULL DEFAULT 0 CHECK (free_used >= 0),
  characters bigint NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS voice_kit.charged_creation (
  n bigserial PRIMARY KEY, account text NOT NULL, voice_id text NOT NULL, created_at bigint NOT NULL);
CREATE TABLE IF NOT EXISTS voice_kit.rate_user (user_id text PRIMARY KEY);
CREATE TABLE IF NOT EXISTS voice_kit.rate_event (user_id text NOT NULL, at_ms bigint NOT NULL);
CREATE INDEX IF NOT EXISTS rate_event_user ON voice_kit.rate_event (user_id, at_ms);
CREATE TABLE IF NOT EXISTS voice_kit.blob (sha256 text PRIMARY KEY, bytes bytea NOT NULL);
CREATE TABLE IF NOT EXISTS voice_kit.object (
  id text PRIMARY KEY, sha256 text NOT NULL REFERENCES voice_kit.blob (sha256), size bigint NOT NULL);
CREATE INDEX IF NOT EXISTS object_sha256 ON voice_kit.object (sha256);
CREATE TABLE IF NOT EXISTS voice_kit.journal (
  seq bigserial PRIMARY KEY, replica text NOT NULL, entry json NOT NULL);
CREATE SEQUENCE IF NOT EXISTS voice_kit.upload_seq;
CREATE SEQUENCE IF NOT EXISTS voice_kit.voice_seq;
INSERT INTO voice_kit.version (id, n) VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING;
INSERT INTO voice_kit.meta (key, value) VALUES ('clockAdvancedMs', '0') ON CONFLICT DO NOTHING;
`;

/**
 * Creates the schema when it is missing, under the advisory lock (a second mock starting meanwhile
 * waits, then finds it made), and the voice_url signing secret every mock of the state shares. A
 * schema of a newer voice-kit is refused with a StateDirError (one line).
 *
 * @example
 * await ensureSchema(client, 'postgres://127.0.0.1:5432/mock');
 */
export async function ensureSchema(client: PoolClient, where: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [schemaLock]);
  try {
    const made = await client.query<{ made: boolean }>(
      `SELECT to_regclass('voice_kit.meta') IS NOT NULL AS made`,
    );
    const found = made.rows[0]?.made
      ? await client.query<{ value: unknown }>(`SELECT value FROM voice_kit.meta WHERE key = 'schemaVersion'`)
      : undefined;
    const version = found?.rows[0]?.value;
    if (typeof version === 'number' && version > schemaVersion)
      throw new StateDirError(
        `the database ${where} holds a voice-kit state of layout ${version}, newer than this voice-kit's (${schemaVersion}); upgrade voice-kit, or give --state-url another database`,
      );
    if (version !== undefined && version !== null && typeof version !== 'number')
      throw new StateDirError(`the database ${where} holds a schema voice_kit that voice-kit did not make`);
    await client.query('BEGIN');
    await client.query(ddl);
    await client.query(
      `INSERT INTO voice_kit.meta (key, value) VALUES ('schemaVersion', $1), ('urlSecret', $2)
         ON CONFLICT DO NOTHING`,
      [JSON.stringify(schemaVersion), JSON.stringify(randomBytes(32).toString('hex'))],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [schemaLock]);
  }
}
