/**
 * The CLI: flags and VOICE_KIT_* variables, exit codes, report files, and cleanup on Ctrl-C in a
 * spawned process.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../cli/test/run-cli.js';
import { conformanceCli } from '../../cli/voice-kit.js';
import { allCases } from '../cases/index.js';

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
    [['--base-url', 'http://127.0.0.1:9'], {}, /--api-key/],
    [['--include', 'everything'], {}, /unknown --include/],
    [['--base-ur', 'http://127.0.0.1:9'], {}, /unknown flag --base-ur .*known flags: --base-url/],
    [['--allow-billabel'], {}, /unknown flag --allow-billabel/],
    [[], { VOICE_KIT_BASEURL: 'http://127.0.0.1:9' }, /unknown variable VOICE_KIT_BASEURL/],
    [['--api-key', 'k'], {}, /--api-key was given but no --base-url: pass --base-url \(VOICE_KIT_BASE_URL\)/],
    [['--pcm-headers', 'A,B'], {}, /--pcm-headers needs exactly three/],
    [
      ['--only', 'uplaod.*'],
      {},
      /--only "uplaod\.\*" matches no case id \(nearest: upload\..*--list prints every id/,
    ],
    [
      [],
      { VOICE_KIT_ONLY: 'envelope.*,nothing-like-this' },
      /VOICE_KIT_ONLY "nothing-like-this" matches no case/,
    ],
  ])('exits 2 on a usage error, before any case: %j %j', async (argv, env, message) => {
    const lines: string[] = [];
    expect(await conformanceCli(argv, env, (l) => lines.push(l))).toBe(2);
    expect(lines.join('\n')).toMatch(message);
    expect(lines.join('\n')).not.toMatch(/cases against/);
  });

  it('--list prints every case id with its section and severity on stdout and exits 0', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await conformanceCli(
      ['--list'],
      {},
      (l) => err.push(l),
      (l) => out.push(l),
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(allCases.length);
    expect(out.find((l) => l.startsWith('upload.extension.flac-refused'))).toMatch(/§4\.1.*must/);
    expect(err).toEqual([`${allCases.length} cases`]);
    const some: string[] = [];
    await conformanceCli(
      ['--list', '--only', 'delete.*'],
      {},
      () => undefined,
      (l) => some.push(l),
    );
    expect(some.length).toBe(allCases.filter((c) => c.id.startsWith('delete.')).length);
  });

  it('words the cost so the numbers add up: voices deleted by the cases and by cleanup', async () => {
    const lines: string[] = [];
    const code = await conformanceCli(['--only', 'delete.voice.*', '--report-dir', dir], {}, (l) =>
      lines.push(l),
    );
    expect(code).toBe(0);
    const cost = /Voices created: (\d+) \((\d+) deleted by the cases, (\d+) by cleanup\), left: 0;/.exec(
      lines.join('\n'),
    );
    expect(cost).not.toBeNull();
    const [created, byCases, byCleanup] = (cost ?? []).slice(1).map(Number);
    expect(byCases).toBeGreaterThan(0);
    expect(created).toBe((byCases ?? 0) + (byCleanup ?? 0));
  });

  it('on Ctrl-C stops after the current case, deletes the voices of the run and exits 130', async () => {
    const { child, exited } = spawnCli(['conformance', '--only', 'voice-save.*,list.*', '--report-dir', dir]);
    let err = '';
    let interrupted = false;
    child.stderr?.on('data', (d: string) => {
      err += d;
      // Interrupt once a voice-creating case has finished, so there is something to clean up.
      if (!interrupted && /voice-save\.id\.normalized/.test(err)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await exited;
    expect(err).toMatch(/interrupted/);
    expect(err).toMatch(/cleanup: deleted [1-9]\d* voices of this run, 0 failures/);
    expect(err).toMatch(/left: 0/);
    expect(code).toBe(130);
  });
});
