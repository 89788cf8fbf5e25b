/**
 * `voice-kit conformance --report-dir DIR` as a user meets it (the bin, spawned): a folder the reports
 * cannot go to stops the run before its first case with one line and exit 2; reports that fail to
 * write at the end exit 3, apart from 1 (a must case failed) and 2 (usage).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// A hang (Node's recursive mkdir spins forever on /proc/nope) must fail the test, not the job.
const conformance = (args: string[]) => runCli(['conformance', ...args]);

describe('conformance --report-dir', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'voice-kit-report-dir-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['a file', () => join(dir, 'a-file'), /a file is in the way/],
    ['a path under a file', () => join(dir, 'a-file', 'below'), /a file is in the way/],
    ['a folder that cannot be made (/proc/nope)', () => '/proc/nope', /no such file or directory/],
  ])('%s: exit 2 with one line, before any case runs', async (_, path, why) => {
    await writeFile(join(dir, 'a-file'), 'not a folder');
    const { code, stderr } = await conformance(['--only', 'auth.*', '--report-dir', path()]);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --report-dir .*: reports cannot be written there: /);
    expect(lines[0]).toMatch(why);
    expect(stderr).not.toMatch(/PASS|FAIL|\n\s+at /);
  });

  it('reports that cannot be written after the run: exit 3, one line naming the folder, no stack trace', async () => {
    const target = join(dir, 'blocked');
    // The probe passes, but conformance.json is a folder, so writing it fails.
    await mkdir(join(target, 'conformance.json'), { recursive: true });
    const { code, stderr } = await conformance([
      '--only',
      'auth.listVoices.missing-key',
      '--report-dir',
      target,
    ]);
    expect(stderr).toMatch(/PASS/);
    expect(stderr).toMatch(
      /error: reports could not be written to .*blocked: a folder is in the way \(EISDIR\)/,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(3);
  });
});
