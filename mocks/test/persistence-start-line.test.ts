/**
 * What `voice-kit mock --state-dir` says at start, as a user reads it: what it restored, what
 * --populate added or skipped; a damaged recording named by the voice that uses it; --repair
 * starting without exactly those entries (listed on stderr, the file moved into damaged/); and a busy
 * port found before a new state dir is created.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgv, root } from '../../cli/test/run-cli.js';
import { referenceWav, uploadInit } from './helpers.js';

interface Run {
  readonly child: ChildProcess;
  readonly line: string;
  readonly url: string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

/** `voice-kit mock ...args`: its start line once it prints one, or its exit code and stderr. */
function mock(args: string[]): Promise<Run | { code: number | null; stderr: string }> {
  const child = spawn(process.execPath, cliArgv(['mock', '--seed', '7', ...args]), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => l.includes('listening on'));
      const url = line && /listening on (http:\/\/[\d.:]+)/.exec(line)?.[1];
      if (line && url) resolve({ child, line, url, stderr: () => stderr, exited });
    });
    void exited.then((code) => resolve({ code, stderr }));
  });
}

async function started(args: string[]): Promise<Run> {
  const run = await mock(args);
  if (!('line' in run)) throw new Error(`the mock did not start (${run.code}): ${run.stderr}`);
  return run;
}

const stop = async (run: Run) => {
  run.child.kill('SIGINT');
  expect(await run.exited).toBe(0);
};

describe('voice-kit mock --state-dir: the start line, damage and --repair', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('says what it restored and what --populate did; names and repairs a damaged voice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voice-kit-state-'));
    dirs.push(dir);
    const args = ['--port', '0', '--state-dir', dir, '--populate', '3'];
    const first = await started(args);
    expect(first.line).toContain(`state kept in ${dir} (empty); --populate 3 added 3 voices)`);
    const upload = await fetch(`${first.url}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    expect(upload.status).toBe(200);
    const voices = (
      (await (await fetch(`${first.url}/__mock/state`)).json()).data.voices as { voiceId: string }[]
    ).map((v) => v.voiceId);
    await stop(first);

    const second = await started(args);
    expect(second.line).toContain(
      `state kept in ${dir}: restored 3 voices and 1 upload; --populate 3 skipped: the state dir already holds voices`,
    );
    await stop(second);

    // One flipped byte in a voice's recording (not the upload's).
    const uploadSha = createHash('sha256').update(referenceWav()).digest('hex');
    const victim = (await readdir(join(dir, 'audio'))).find(
      (n) => /^[0-9a-f]{64}$/.test(n) && n !== uploadSha,
    ) as string;
    const file = join(dir, 'audio', victim);
    const bytes = await readFile(file);
    bytes[100] = (bytes[100] as number) ^ 0xff;
    await writeFile(file, bytes);
    const refused = await mock(['--port', '0', '--state-dir', dir]);
    expect('code' in refused && refused.code).toBe(2);
    const message = (refused as { stderr: string }).stderr;
    const named = /\(of voice ([a-z0-9_]+)\) is damaged/.exec(message)?.[1];
    expect(voices).toContain(named);
    expect(message).toContain(file);
    expect(message).toMatch(/start with --repair/);

    const repaired = await started(['--port', '0', '--state-dir', dir, '--repair']);
    expect(repaired.stderr()).toContain(
      `voice-kit mock --repair: dropped voice ${named}: its recording ${file} is damaged`,
    );
    expect(repaired.line).toContain('restored 2 voices and 1 upload');
    const left = (
      (await (await fetch(`${repaired.url}/__mock/state`)).json()).data.voices as { voiceId: string }[]
    ).map((v) => v.voiceId);
    expect(left.sort()).toEqual(voices.filter((v) => v !== named).sort());
    await stop(repaired);
    expect(await readdir(join(dir, 'damaged'))).toEqual([victim]);
    const clean = await started(['--port', '0', '--state-dir', dir]);
    expect(clean.line).toContain('restored 2 voices and 1 upload');
    await stop(clean);
  });

  it('finds a busy port before it creates a new state dir', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'voice-kit-state-'));
    dirs.push(parent);
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
    const port = (busy.address() as { port: number }).port;
    try {
      const refused = await mock(['--port', String(port), '--state-dir', join(parent, 'new')]);
      expect('code' in refused && refused.code).toBe(1);
      expect((refused as { stderr: string }).stderr).toMatch(
        new RegExp(`port ${port} on 127.0.0.1 is in use`),
      );
      expect(await readdir(parent)).toEqual([]);
    } finally {
      busy.close();
    }
    const bad = await mock(['--port', '0', '--repair']);
    expect('code' in bad && bad.code).toBe(2);
    expect((bad as { stderr: string }).stderr).toMatch(
      /--repair: repairs a state dir; give one with --state-dir/,
    );
  });
});
