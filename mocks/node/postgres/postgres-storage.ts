import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { concat, type Storage, type StorageWriter } from '../../core/platform/storage.js';

/**
 * Audio bytes in the database, content-addressed: `blob` holds each distinct content once under its
 * SHA-256, `object` names it for a storage id. A write commits the blob and its name in one
 * transaction, before the row of the upload or voice that names it (the operation commits that
 * after close() resolves). Every mock of the database reads what any of them wrote.
 * A write is held in memory until it closes (an upload is at most 50 MiB).
 */
export function postgresStorage(pool: Pool): Storage {
  const remove = async (id: string) => {
    const client = await pool.connect();
    try {
      const removed = await client.query<{ sha256: string }>(
        'DELETE FROM voice_kit.object WHERE id = $1 RETURNING sha256',
        [id],
      );
      const sha256 = removed.rows[0]?.sha256;
      if (sha256 === undefined) return;
      await client
        .query(
          `DELETE FROM voice_kit.blob WHERE sha256 = $1
             AND NOT EXISTS (SELECT 1 FROM voice_kit.object WHERE sha256 = $1)`,
          [sha256],
        )
        .catch((error: { code?: string }) => {
          // Named again meanwhile by another write (the foreign key says so): the bytes stay.
          if (error.code !== '23503') throw error;
        });
    } finally {
      client.release();
    }
  };
  return {
    create(id): StorageWriter {
      let parts: Uint8Array[] = [];
      return {
        write: async (chunk) => {
          parts.push(chunk.slice());
        },
        close: async () => {
          const bytes = concat(parts);
          parts = [];
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query(
              `INSERT INTO voice_kit.blob (sha256, bytes) VALUES ($1, $2)
                 ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256`,
              [sha256, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
            );
            await client.query(
              `INSERT INTO voice_kit.object (id, sha256, size) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET sha256 = EXCLUDED.sha256, size = EXCLUDED.size`,
              [id, sha256, bytes.byteLength],
            );
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK').catch(() => {});
            throw error;
          } finally {
            client.release();
          }
        },
        abort: async () => {
          parts = [];
        },
      };
    },
    async read(id) {
      const result = await pool.query<{ bytes: Buffer }>(
        'SELECT b.bytes FROM voice_kit.object o JOIN voice_kit.blob b USING (sha256) WHERE o.id = $1',
        [id],
      );
      const bytes = result.rows[0]?.bytes;
      return bytes === undefined
        ? undefined
        : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    remove,
    async clear() {
      await pool.query('DELETE FROM voice_kit.object');
      await pool.query('DELETE FROM voice_kit.blob');
    },
    // The bytes are the state: they stay. The pool closes with the store.
    async close() {},
  };
}
