import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ownerFileName,
  ownerLives,
  type ProcStatReader,
  procStatOf,
  sweepOrphans,
} from './temp-dir-owner.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A temp folder holding one mock directory owned by `pid` (started `started`). */
async function folderOwnedBy(pid: number, started: string | null): Promise<string> {
  const tmp = await mkdtemp(join(tmpdir(), 'vk-owner-'));
  dirs.push(tmp);
  await mkdir(join(tmp, 'voice-kit-abcdef'));
  await writeFile(join(tmp, 'voice-kit-abcdef', ownerFileName), JSON.stringify({ pid, started }));
  return tmp;
}

describe('the owner of a temporary directory', () => {
  // A pid that exists and is not this process (the sweep never judges its own): the parent.
  const live = process.ppid;

  it('is gone when /proc says it is a zombie (Z) or dead (X), whatever its start time', () => {
    for (const state of ['Z', 'X']) {
      const zombie: ProcStatReader = () => ({ state, started: '42' });
      expect(ownerLives({ pid: live, started: '42' }, zombie)).toBe(false);
      expect(ownerLives({ pid: live, started: null }, zombie)).toBe(false);
    }
  });

  it('lives while it runs or sleeps with the start time it wrote', () => {
    for (const state of ['R', 'S', 'D', 'T']) {
      const running: ProcStatReader = () => ({ state, started: '42' });
      expect(ownerLives({ pid: live, started: '42' }, running)).toBe(true);
      expect(ownerLives({ pid: live, started: '43' }, running)).toBe(false);
    }
    // No /proc: the pid alone decides.
    expect(ownerLives({ pid: live, started: '42' }, () => null)).toBe(true);
  });

  it('a sweep removes the directory of a zombie owner and keeps a sleeping one’s', async () => {
    const zombieTmp = await folderOwnedBy(live, '42');
    expect(await sweepOrphans(zombieTmp, () => ({ state: 'Z', started: '42' }))).toBe(1);
    expect(await readdir(zombieTmp)).toEqual([]);
    const sleepingTmp = await folderOwnedBy(live, '42');
    expect(await sweepOrphans(sleepingTmp, () => ({ state: 'S', started: '42' }))).toBe(0);
    expect(await readdir(sleepingTmp)).toEqual(['voice-kit-abcdef']);
  });

  it.skipIf(!existsSync('/proc/self/stat'))(
    'a real zombie (a child its parent never reaps) is gone',
    async () => {
      // `sleep 0.2` exits soon; its parent has exec'd into `sleep 5` by then, which never waits: a zombie.
      const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 5'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const pid = await new Promise<number>((resolve) =>
          parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
        );
        let stat = procStatOf(pid);
        for (let i = 0; i < 100 && stat?.state !== 'Z'; i += 1) {
          await new Promise((r) => setTimeout(r, 20));
          stat = procStatOf(pid);
        }
        expect(stat?.state).toBe('Z');
        expect(() => process.kill(pid, 0)).not.toThrow();
        const tmp = await folderOwnedBy(pid, stat?.started ?? null);
        expect(ownerLives({ pid, started: stat?.started ?? null })).toBe(false);
        expect(await sweepOrphans(tmp)).toBe(1);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});
