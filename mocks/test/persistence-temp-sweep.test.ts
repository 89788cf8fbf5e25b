/**
 * An in-memory mock keeps uploads in os.tmpdir()/voice-kit-*; killed with SIGKILL it cannot remove
 * that directory. The next mock that starts does, when the owner written inside is gone; it leaves
 * the directory of a live owner and anything not provably ours. Each mock runs in a process of its
 * own with a private TMPDIR.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../cli/test/run-cli.js';
import { ownerFileName, startOf } from '../node/temp-dir-owner.js';

/** An in-memory mock (`voice-kit mock`) with TMPDIR = `tmp`, once it listens. */
const children: ChildProcess[] = [];

function startMock(tmp: string): Promise<ChildProcess> {
  const run = spawnCli(['mock', '--port', '0'], { env: { TMPDIR: tmp } });
  children.push(run.child);
  return run.firstLine.then(() => run.child);
}

const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });

const mockDirs = async (tmp: string) => (await readdir(tmp)).filter((n) => /^voice-kit-.{6}$/.test(n)).sort();

describe('temporary directories of killed mocks', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    // A failed expectation must not leave a mock running.
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('are removed by the next start; a live owner’s and foreign ones stay', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'vk-sweep-'));
    dirs.push(tmp);
    const first = await startMock(tmp);
    const [left] = await mockDirs(tmp);
    expect(left).toBeDefined();
    expect(await readdir(join(tmp, left as string))).toContain(ownerFileName);
    await killed(first, 'SIGKILL');
    expect(await mockDirs(tmp)).toEqual([left]);

    // Not ours to remove: no owner file; an owner that lives (this test's process); a symlink.
    await mkdir(join(tmp, 'voice-kit-nofile'));
    await writeFile(join(tmp, 'voice-kit-nofile', 'keep'), 'x');
    await mkdir(join(tmp, 'voice-kit-living'));
    await writeFile(
      join(tmp, 'voice-kit-living', ownerFileName),
      JSON.stringify({ pid: process.pid, started: startOf(process.pid) }),
    );
    // A pid reused by a live process: the start time tells it is not the owner (Linux /proc).
    await mkdir(join(tmp, 'voice-kit-reused'));
    const reused = startOf(process.pid) === null ? null : 'another start';
    await writeFile(
      join(tmp, 'voice-kit-reused', ownerFileName),
      JSON.stringify({ pid: process.pid, started: reused }),
    );
    const target = await mkdtemp(join(tmp, 'target-'));
    await writeFile(join(target, ownerFileName), JSON.stringify({ pid: 999_999_999, started: null }));
    await symlink(target, join(tmp, 'voice-kit-linked'));

    const second = await startMock(tmp);
    const after = await mockDirs(tmp);
    expect(after).not.toContain(left);
    expect(after).toEqual(
      expect.arrayContaining(['voice-kit-linked', 'voice-kit-living', 'voice-kit-nofile']),
    );
    if (reused !== null) expect(after).not.toContain('voice-kit-reused');
    expect(await readdir(target)).toEqual([ownerFileName]);
    // The second mock's own directory, removed when it stops cleanly.
    const own = after.filter(
      (n) => !['voice-kit-linked', 'voice-kit-living', 'voice-kit-nofile', 'voice-kit-reused'].includes(n),
    );
    expect(own).toHaveLength(1);
    await killed(second, 'SIGTERM');
  });
});
