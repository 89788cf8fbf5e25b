/**
 * The npm scripts as a user runs them (npm on the pinned Node, each script in `sh -c`): relative paths
 * resolve from the folder npm was run in (INIT_CWD) and errors name that folder; `npm run mock:prism`
 * stops with its npm. Every port is on loopback and every process is stopped by its id.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];

/** `npm <args>` run in `cwd`, with this clone's node_modules/.bin first (the pinned Node runs npm). */
function npm(args: string[], cwd: string) {
  const env: Record<string, string | undefined> = { ...process.env, INIT_CWD: undefined };
  for (const name of Object.keys(env)) if (/^(npm_|VOICE_KIT_)/i.test(name)) delete env[name];
  env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`;
  const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d;
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/v1/voice/list`, { headers: { 'X-API-Key': 'k' } }).then(
    async (r) => {
      await r.arrayBuffer();
      return true;
    },
    () => false,
  );

describe('npm run from a subfolder', () => {
  it('reads a relative path from the folder npm was run in, and the error names that folder', async () => {
    const docs = join(root, 'docs');
    const run = npm(['run', 'conformance', '--', '--reference-audio', 'no-such-recording.wav'], docs);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain(`no-such-recording.wav (from ${docs}): cannot read it (ENOENT)`);
  }, 120_000);
});

describe('npm run mock:prism', () => {
  it('stops with its npm: SIGTERM to npm, and Prism no longer answers', async () => {
    const port = await freePort();
    const run = npm(['run', 'mock:prism', '--', '--port', String(port)], root);
    await expect.poll(() => answers(port), { timeout: 60_000, interval: 250 }).toBe(true);
    run.child.kill('SIGTERM');
    await run.exited;
    await expect.poll(() => answers(port), { timeout: 10_000, interval: 200 }).toBe(false);
  }, 90_000);
});
