/**
 * openStateDir on a directory whose database was lost while its recordings stayed: it must refuse
 * (a new empty database there would be an empty mock, and the sweep of unnamed bytes would then
 * delete every recording).
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateDir } from './state-dir.js';
import { StateDirError } from './state-dir-error.js';
import { markerName } from './state-dir-layout.js';

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

  it('still opens a new dir, and writes its marker', async () => {
    const dir = await newDir();
    const opened = await openStateDir(dir);
    expect(opened.rows).toEqual([]);
    await opened.store.close();
    expect(JSON.parse(await readFile(join(dir, markerName), 'utf8'))).toEqual({
      format: 'voice-kit-state',
      version: 1,
    });
  });

  /** Opening must fail with a StateDirError of one line; its message. */
  const refusal = async (dir: string): Promise<string> => {
    const refused = await openStateDir(dir).then(
      async (d) => {
        await d.store.close();
        return new Error('opened');
      },
      (error: unknown) => error as Error,
    );
    expect(refused).toBeInstanceOf(StateDirError);
    expect(refused.message.split('\n')).toHaveLength(1);
    return refused.message;
  };

  it('never deletes what it did not write in audio/ (refused, every file kept)', async () => {
    // An app repo started with --state-dir . : an audio/ folder of its own, no marker, no state.db.
    const app = await newDir();
    await mkdir(join(app, 'audio', 'podcast'), { recursive: true });
    await writeFile(join(app, 'audio', 'podcast', 'ep1.txt'), 'x');
    await writeFile(join(app, 'audio', 'song.mp3'), 'y');
    expect(await refusal(app)).toMatch(/audio holds files voice-kit did not write: podcast, song\.mp3/);
    expect((await readdir(join(app, 'audio'))).sort()).toEqual(['podcast', 'song.mp3']);
    expect(await readdir(app)).toEqual(['audio']);
    // The same files dropped into a state dir of ours: refused too, never swept.
    const ours = await storedUpload();
    await writeFile(join(ours, 'audio', 'song.mp3'), 'y');
    await mkdir(join(ours, 'audio', 'a'.repeat(64)));
    await writeFile(join(ours, 'audio', 'a'.repeat(64), 'keep.txt'), 'z');
    expect(await refusal(ours)).toMatch(/did not write: a{64}, song\.mp3/);
    expect(await readFile(join(ours, 'audio', 'a'.repeat(64), 'keep.txt'), 'utf8')).toBe('z');
    await writeFile(join(ours, 'audio', 'tmp', 'notes.txt'), 'n');
    await rm(join(ours, 'audio', 'song.mp3'));
    await rm(join(ours, 'audio', 'a'.repeat(64)), { recursive: true });
    expect(await refusal(ours)).toMatch(/audio\/tmp holds files voice-kit did not write: notes\.txt/);
    expect(await readFile(join(ours, 'audio', 'tmp', 'notes.txt'), 'utf8')).toBe('n');
  });

  it('refuses an audio/ that is a symlink, and leaves its target alone', async () => {
    const victim = await newDir();
    await mkdir(join(victim, 'sub'));
    await writeFile(join(victim, 'b'.repeat(64)), 'looks like ours');
    await writeFile(join(victim, 'sub', 'x.txt'), 'x');
    const ours = await storedUpload();
    await rm(join(ours, 'audio'), { recursive: true });
    await symlink(victim, join(ours, 'audio'));
    expect(await refusal(ours)).toMatch(/audio is a symlink/);
    expect((await readdir(victim)).sort()).toEqual(['b'.repeat(64), 'sub']);
    const fresh = await newDir();
    await symlink(victim, join(fresh, 'audio'));
    expect(await refusal(fresh)).toMatch(/audio is a symlink/);
    expect((await readdir(victim)).sort()).toEqual(['b'.repeat(64), 'sub']);
  });

  it('refuses a non-empty dir that is no state dir, and creates nothing in it', async () => {
    const app = await newDir();
    await writeFile(join(app, 'package.json'), '{}');
    expect(await refusal(app)).toMatch(/is not empty and is no voice-kit state dir.*package\.json/);
    expect(await readdir(app)).toEqual(['package.json']);
    // A state.db that is not ours (another program's SQLite file, or no database at all): untouched.
    await writeFile(join(app, 'state.db'), 'not sqlite');
    expect(await refusal(app)).toMatch(
      /no voice-kit state dir .*state\.db is not a voice-kit state database/,
    );
    expect(await readFile(join(app, 'state.db'), 'utf8')).toBe('not sqlite');
  });

  it('takes a state dir of the layout before the marker, and marks it', async () => {
    const dir = await storedUpload();
    await rm(join(dir, markerName));
    const opened = await openStateDir(dir);
    expect(opened.rows.filter((r) => r.table === 'upload')).toHaveLength(1);
    await opened.store.close();
    expect(await readdir(dir)).toContain(markerName);
  });

  it('collects only its own leftovers: unnamed recordings, temp files, probes', async () => {
    const dir = await storedUpload();
    const orphan = join(dir, 'audio', 'c'.repeat(64));
    await writeFile(orphan, 'bytes of an upload that crashed before its row');
    await writeFile(join(dir, 'audio', 'tmp', 'd'.repeat(24)), 'a write cut short');
    await writeFile(join(dir, 'audio', '.probe-0123456789ab'), '');
    const opened = await openStateDir(dir);
    await opened.store.close();
    expect(await recordings(dir)).toHaveLength(1);
    expect(await readdir(join(dir, 'audio', 'tmp'))).toEqual([]);
    expect((await readdir(join(dir, 'audio'))).sort()).toEqual([...(await recordings(dir)), 'tmp'].sort());
  });

  it('names the voices a damaged recording belongs to; repair drops only them, and moves the file aside', async () => {
    const dir = await storedUpload();
    const opened = await openStateDir(dir);
    for (const [id, bytes] of [
      ['voice_a', 5],
      ['voice_b', 6],
    ] as const) {
      const writer = opened.storage.create(id);
      await writer.write(new Uint8Array(2048).fill(bytes));
      await writer.close();
    }
    const voice = (voiceId: string, audioId: string) => ({
      table: 'voice' as const,
      key: JSON.stringify(['s', voiceId]),
      value: { voiceId, audioId, space: 's' },
    });
    await opened.store.commit({ put: [voice('anna_calm', 'voice_a'), voice('ben_bold', 'voice_b')] });
    await opened.storage.close();
    await opened.store.close();
    const named = opened.rows.length; // (the upload)
    expect(named).toBe(1);
    const hashOf = async (fill: number) =>
      (await import('node:crypto'))
        .createHash('sha256')
        .update(new Uint8Array(2048).fill(fill))
        .digest('hex');
    const damaged = join(dir, 'audio', await hashOf(5));
    await writeFile(damaged, new Uint8Array(2048).fill(9));
    const message = await refusal(dir);
    expect(message).toContain(damaged);
    expect(message).toMatch(
      /\(of voice anna_calm\) is damaged: its SHA-256 does not match its name; start with --repair/,
    );

    const repaired = await openStateDir(dir, { repair: true });
    expect(repaired.dropped).toEqual([
      {
        file: damaged,
        problem: 'is damaged: its SHA-256 does not match its name',
        voiceIds: ['anna_calm'],
        uploadKeys: [],
      },
    ]);
    const kept = repaired.rows.filter((r) => r.table === 'voice' || r.table === 'upload').map((r) => r.key);
    expect(kept.sort()).toEqual([JSON.stringify(['s', 'ben_bold']), 'obj_1']);
    await repaired.store.close();
    expect(await readdir(join(dir, 'damaged'))).toEqual([await hashOf(5)]);
    // The next start is clean, with the same rows.
    const again = await openStateDir(dir);
    expect(again.rows.filter((r) => r.table === 'voice').map((r) => r.key)).toEqual([
      JSON.stringify(['s', 'ben_bold']),
    ]);
    await again.store.close();
  });
});
