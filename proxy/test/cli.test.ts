/**
 * `voice-kit proxy` as a process: it prints where it listens, prints each violation as it happens, and
 * on SIGTERM writes the reports, prints a summary and exits 1 when a must-rule was violated, else 0.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../../cli/test/run-cli.js';
import type { ProxyReport } from '../types.js';
import { envelope, sendJson, type Upstream, upstream } from './upstreams.js';

let up: Upstream;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-proxy-cli-'));
  // Clean but for one thing: a request without a key is answered 200 on /v1/voice/list?deviant.
  up = await upstream((req, _body, res) => {
    if (!req.headers['x-api-key'] && !req.url?.includes('deviant'))
      return sendJson(res, 401, envelope(401, 10003));
    sendJson(res, 200, envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }));
  });
});
afterAll(async () => {
  await up.close();
  await rm(dir, { recursive: true, force: true });
});

async function session(
  paths: string[],
  reportDir: string,
  beforeStop?: () => Promise<void>,
  extra: readonly string[] = [],
) {
  const run = spawnCli(['proxy', '--upstream', up.url, '--port', '0', '--report-dir', reportDir, ...extra]);
  const { child, exited } = run;
  const stdout = () => run.output().stdout;
  await expect.poll(stdout, { timeout: 15_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  const url = /listening on (http:\/\/\S+),/.exec(stdout())?.[1];
  for (const path of paths) await (await fetch(`${url}${path}`)).arrayBuffer();
  await beforeStop?.();
  child.kill('SIGTERM');
  return { code: await exited, ...run.output() };
}

/** A proxy that must not start: its exit code and stderr. */
const refused = (args: string[]) => runCli(['proxy', ...args], { timeoutMs: 15_000 });

describe('voice-kit proxy', () => {
  it('exits 1 on SIGTERM after a must violation, having printed it and written the reports', async () => {
    const reportDir = join(dir, 'deviant');
    const { code, stdout, stderr } = await session(['/v1/voice/list', '/v1/voice/list?deviant'], reportDir);
    expect(stderr).toMatch(
      /violation \[must\] auth\.missing-key §5\.1, §5\.5 GET \/v1\/voice\/list \(listVoices, exchange 2\)/,
    );
    expect(stdout).toMatch(/2 exchanges, 1 violation \(1 must, 0 should\).*FAIL/);
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(join(reportDir, 'proxy.json'), 'utf8')) as ProxyReport;
    expect(report.violations.map((v) => [v.rule, v.exchange])).toEqual([['auth.missing-key', 2]]);
    expect(await readFile(join(reportDir, 'proxy.junit.xml'), 'utf8')).toContain('failures="1"');
  });

  it('exits 0 on SIGTERM when every exchange kept the contract', async () => {
    const { code, stdout } = await session(['/v1/voice/list'], join(dir, 'clean'));
    expect(stdout).toMatch(/1 exchange, 0 violations.*PASS/);
    expect(code).toBe(0);
  });

  it('refuses a report folder it cannot write at start, in one line, with exit 2 (it used to spin forever at the end)', async () => {
    // A file of its own where a folder of the path should be, whatever the other tests wrote.
    const notAFolder = join(dir, 'not-a-folder');
    await writeFile(notAFolder, 'x');
    for (const reportDir of ['/proc/nope', join(notAFolder, 'reports')]) {
      const { code, stderr } = await refused([
        '--upstream',
        up.url,
        '--port',
        '0',
        '--report-dir',
        reportDir,
      ]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^voice-kit proxy: the report folder .* cannot be written: (ENOENT|ENOTDIR)$/),
      ]);
    }
  });

  it('--write-profile writes the profile at the end (private) and says how many points it holds', async () => {
    const file = join(dir, 'seen.profile.json');
    const { code, stdout } = await session(['/v1/voice/list'], join(dir, 'profiled'), undefined, [
      '--write-profile',
      file,
    ]);
    expect(code).toBe(0);
    // A list of no voice, refused without a key: nothing a profile can hold.
    expect(stdout).toContain(`profile: 0 points written to ${file} (0 unsettled)`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ kind: 'voice-kit-profile', points: {} });
  });

  it('refuses a folder at --write-profile at start, in one line, with exit 2', async () => {
    const { code, stderr } = await refused(['--upstream', up.url, '--port', '0', '--write-profile', dir]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^voice-kit proxy: the profile file \(--write-profile\): .* is a folder/),
    ]);
  });

  it('exits 3 with one line, no stack trace, when the reports cannot be written at the end', async () => {
    const reportDir = join(dir, 'vanishing');
    const { code, stdout, stderr } = await session(['/v1/voice/list'], reportDir, async () => {
      // The folder was fine at start; a file takes its place before the end.
      await rm(reportDir, { recursive: true });
      await writeFile(reportDir, 'x');
    });
    expect(code).toBe(3);
    expect(stdout).toMatch(/1 exchange, 0 violations.*PASS/);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^voice-kit proxy: could not write the reports in .*vanishing \((EEXIST|ENOTDIR)\)$/,
      ),
    ]);
  });

  it('a second signal within a second while it waits for an exchange in flight is the same stop: the reports are written', async () => {
    const reportDir = join(dir, 'twice');
    const run = spawnCli(['proxy', '--upstream', up.url, '--port', '0', '--report-dir', reportDir]);
    const stdout = () => run.output().stdout;
    await expect.poll(stdout, { timeout: 15_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout())?.[1]);
    // A request whose body never ends keeps the proxy's close waiting for its grace second.
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('POST /v1/voice/save HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{'),
    );
    socket.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 200));
    run.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    // Within a second of the first: the same stop (one signal to a process group under npm arrives twice).
    run.child.kill('SIGTERM');
    expect([0, 1]).toContain(await run.exited);
    expect(run.output().stderr).not.toContain('stopped again');
    expect(existsSync(join(reportDir, 'proxy.json'))).toBe(true);
    socket.destroy();
  });

  it('refuses a missing --upstream with exit 2', async () => {
    const { code, stderr } = await runCli(['proxy']);
    expect(code).toBe(2);
    expect(stderr).toContain('--upstream is required');
  });
});
