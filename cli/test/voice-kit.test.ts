import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function voiceKit(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/bin.ts', ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] as string);
    });
    child.once('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
  });
  firstLine.catch(() => {}); // awaited only by the tests that expect a line
  return { child, exited, firstLine, output: () => ({ stdout, stderr }) };
}

describe('voice-kit mock', () => {
  let run: ReturnType<typeof voiceKit>;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'voice-kit-cli-test-'));
  });
  afterAll(async () => {
    (run?.child as ChildProcess | undefined)?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('prints one line with the URL and the keys, serves, and closes cleanly on Ctrl-C', async () => {
    run = voiceKit(['mock', '--port', '0', '--seed', '7']);
    const line = await run.firstLine;
    expect(line).toMatch(/^voice-kit mock listening on http:\/\/127\.0\.0\.1:\d+ \(X-API-Key: mock-key, /);
    const url = /http:\/\/[\d.:]+/.exec(line)?.[0];
    const res = await fetch(`${url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
    expect(res.status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [[], 204, '*'],
    [['--no-cors'], 405, null],
  ] as [string[], number, string | null][])(
    'answers CORS preflights unless told not to: %j',
    async (flags, status, allowOrigin) => {
      run = voiceKit(['mock', '--port', '0', ...flags]);
      const url = /http:\/\/[\d.:]+/.exec(await run.firstLine)?.[0];
      const res = await fetch(`${url}/v1/voice/list`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET' },
      });
      expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([status, allowOrigin]);
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    },
  );

  it('uses the keys of a --config file', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(
      file,
      JSON.stringify({
        keys: [{ key: 'ci-key', user: 'u', organization: 'o', project: 'p', environment: 'e' }],
      }),
    );
    run = voiceKit(['mock', '--port', '0', '--config', file]);
    expect(await run.firstLine).toContain('X-API-Key: ci-key;');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it.each([
    [
      { keys: [{ key: 'k', user: 'u', organization: '', project: 'p', environment: 'e' }] },
      'config.keys[0].organization: expected a non-empty string',
    ],
    ['{not json', 'not valid JSON'],
  ])('refuses a bad config (%j) with exit code 2, naming the problem', async (content, message) => {
    const file = join(dir, 'bad.json');
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    const bad = voiceKit(['mock', '--port', '0', '--config', file]);
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toContain(message);
  });

  it('shows help', async () => {
    const help = voiceKit(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.output().stdout).toContain('mock');
    expect(help.output().stdout).toContain('conformance');
  });
});
