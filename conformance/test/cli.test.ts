/**
 * The CLI: flags and VOICE_KIT_* variables, exit codes, report files, and cleanup on Ctrl-C in a
 * spawned process.
 */
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceCli } from '../cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('voice-kit conformance CLI', () => {
  it('runs the selected cases against the embedded mock, exits 0 and writes the three reports', async () => {
    const lines: string[] = [];
    const code = await conformanceCli(['--only', 'envelope.*', '--report-dir', dir], {}, (l) =>
      lines.push(l),
    );
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(/PASS: every must case passed/);
    for (const f of ['conformance.json', 'conformance.junit.xml', 'conformance.md'])
      await access(join(dir, f));
  });

  it('reads VOICE_KIT_* variables when flags are absent', async () => {
    const lines: string[] = [];
    const code = await conformanceCli(
      [],
      { VOICE_KIT_ONLY: 'envelope.success.list', VOICE_KIT_REPORT_DIR: dir },
      (l) => lines.push(l),
    );
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/1 cases against/);
  });

  it.each([
    [['--base-url', 'http://127.0.0.1:9'], /--api-key/],
    [['--include', 'everything'], /unknown --include/],
  ])('exits 2 on a usage error: %j', async (argv, message) => {
    const lines: string[] = [];
    expect(await conformanceCli(argv, {}, (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toMatch(message);
  });

  it('on Ctrl-C stops after the current case, deletes the voices of the run and exits 130', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'conformance/cli.ts', '--only', 'voice-save.*,list.*', '--report-dir', dir],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    let interrupted = false;
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      // Interrupt once a voice-creating case has finished, so there is something to clean up.
      if (!interrupted && /voice-save\.id\.normalized/.test(err)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toMatch(/interrupted/);
    expect(err).toMatch(/cleanup: deleted [1-9]\d* voices of this run, 0 failures/);
    expect(err).toMatch(/left: 0/);
    expect(code).toBe(130);
  });
});
