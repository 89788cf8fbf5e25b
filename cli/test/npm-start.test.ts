/**
 * `npm start` as a user runs it (npm 11 on the pinned Node, which runs scripts/start.mjs in `sh -c`):
 * SIGTERM or SIGKILL to npm stops the mock; a forgotten `--` never starts a mock on another port; `--version`.
 * Every port is on loopback and every process is stopped by its id.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];

function npmStart(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, VOICE_KIT_PORT: undefined };
  // The node_modules/.bin of this clone first, as npm scripts have it: the pinned Node runs npm too.
  env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`;
  const child = spawn('npm', ['start', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d;
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', reject);
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something answers on a loopback port. */
const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } }).then(
    () => true,
    () => false,
  );

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('npm start', () => {
  it('stops the mock when npm gets SIGTERM (npm passes it to its shell only)', async () => {
    const port = await freePort();
    const run = npmStart(['--', '--port', String(port)]);
    // The first npm start of a changed tree builds dist/ first.
    expect(await until(() => answers(port), 120_000)).toBe(true);
    run.child.kill('SIGTERM');
    await run.exited;
    expect(await until(async () => !(await answers(port)), 5_000)).toBe(true);
  }, 150_000);

  it('stops the mock when npm is killed with SIGKILL (its shell lives on), so a restart gets the port', async () => {
    const port = await freePort();
    const run = npmStart(['--', '--port', String(port)]);
    expect(await until(() => answers(port), 120_000)).toBe(true);
    run.child.kill('SIGKILL');
    await run.exited;
    // Without the watch on npm the mock ran on, orphaned, holding the port for good.
    expect(await until(async () => !(await answers(port)), 5_000)).toBe(true);
    const again = npmStart(['--', '--port', String(port)]);
    expect(await until(() => answers(port), 60_000)).toBe(true);
    again.child.kill('SIGTERM');
    await again.exited;
  }, 150_000);

  it.each([
    [['--port'], 'npm start -- --port'],
    [['--port='], 'npm start -- --port'],
  ])(
    '%j PORT (the "--" forgotten): exit 2 with the command meant, no mock started',
    async (flag, meant) => {
      const port = await freePort();
      const args = flag[0]?.endsWith('=') ? [`${flag[0]}${port}`] : [...flag, String(port)];
      const run = npmStart(args);
      expect(await run.exited).not.toBe(0);
      const { stderr } = run.output();
      expect(stderr).toContain(`did you mean: ${meant} ${port}`);
      expect(stderr).not.toMatch(/listening/);
      expect(await answers(port)).toBe(false);
    },
    120_000,
  );

  it('-- --version prints the package version', async () => {
    const run = npmStart(['--', '--version']);
    expect(await run.exited).toBe(0);
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(run.output().stdout.trim().split('\n').at(-1)).toBe(version);
  }, 120_000);
});
