/**
 * openStateDir on a directory whose database was lost while its recordings stayed: it must refuse
 * (a new empty database there would be an empty mock, and the sweep of unnamed bytes would then
 * delete every recording).
 */
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateDir } from './state-dir.js';
import { StateDirError } from './state-dir-error.js';

const recordings = async (dir: string) =>
  (await readdir(join(dir, 'audio'))).filter((name) => /^[0-9a-f]{64}$/.test(name));

describe('openStateDir', () => {
  const dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voice-kit-state-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A dir holding one upload (row and bytes); `copy` is taken while it is open, as after a kill -9. */
  async function storedUpload(copy?: string): Promise<string> {
    const dir = await newDir();
    const opened = await openStateDir(dir);
    const writer = opened.storage.create('obj_1');
    await writer.write(new Uint8Array(4096).fill(3));
    await writer.close();
    const record = {
      objectKey: 'obj_1',
      fileName: 'a.wav',
      size: 4096,
      scene: 'audio',
      space: 's',
      user: 'u',
      uploadedAt: 1,
    };
    await opened.store.commit({ put: [{ table: 'upload', key: 'obj_1', value: record }] });
    if (copy) await cp(dir, copy, { recursive: true });
    await opened.storage.close();
    await opened.store.close();
    return dir;
  }

  it('refuses a dir whose state.db was deleted or emptied, and keeps its recordings', async () => {
    const dir = await storedUpload();
    expect(await openStateDir(dir).then((d) => d.store.close().then(() => d.rows.length))).toBe(1);
    await rm(join(dir, 'state.db'));
    await expect(openStateDir(dir)).rejects.toThrow(StateDirError);
    await expect(openStateDir(dir)).rejects.toThrow(/state\.db holds no state.*1 recording/);
    expect(await recordings(dir)).toHaveLength(1);
    await writeFile(join(dir, 'state.db'), '');
    await expect(openStateDir(dir)).rejects.toThrow(/holds no state/);
    expect(await recordings(dir)).toHaveLength(1);
  });

  it('refuses a dir copied after a crash whose state.db-wal was removed', async () => {
    const copy = join(await newDir(), 'copy');
    await storedUpload(copy);
    // Before the first checkpoint every commit lives in the write-ahead log alone.
    await rm(join(copy, 'state.db-wal'));
    const refused = await openStateDir(copy).catch((error: unknown) => error as Error);
    expect(refused).toBeInstanceOf(StateDirError);
    expect((refused as Error).message).toContain(join(copy, 'state.db'));
    expect((refused as Error).message).toMatch(/state\.db-wal was removed/);
    expect((refused as Error).message.split('\n')).toHaveLength(1);
    expect(await recordings(copy)).toHaveLength(1);
  });

  it('still opens a new dir, and a dir with only stray files in audio/', async () => {
    const dir = await newDir();
    const opened = await openStateDir(dir);
    expect(opened.rows).toEqual([]);
    await opened.store.close();
    await writeFile(join(dir, 'audio', 'notes.txt'), 'not a recording');
    await rm(join(dir, 'state.db'));
    const again = await openStateDir(dir);
    await again.store.close();
  });
});
