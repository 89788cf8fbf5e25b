import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root, spawnCli } from './run-cli.js';

const voiceKit = (args: string[], env: Record<string, string> = {}) => spawnCli(args, { env });

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
    [[], 400],
    [['--allow-private-urls'], 200],
  ] as [string[], number][])(
    'fetches a loopback ref_audio URL only when allowed: %j → %i',
    async (flags, status) => {
      const reference = await readFile(join(root, 'fixtures/files/speech-espeak.wav'));
      const files = createHttpServer((_req, res) => res.writeHead(200).end(reference));
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      try {
        run = voiceKit(['mock', '--port', '0', ...flags]);
        const url = /http:\/\/[\d.:]+/.exec(await run.firstLine)?.[0];
        const res = await fetch(`${url}/v1/voice/save`, {
          method: 'POST',
          headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            voice_id: 'from_loopback',
            ref_audio: `http://127.0.0.1:${(files.address() as AddressInfo).port}/speech.wav`,
          }),
        });
        expect(res.status).toBe(status);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
      } finally {
        files.close();
      }
    },
  );

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

describe('voice-kit mock: the port', () => {
  let held: Server;
  let port: number;
  const inUse = (p: number) =>
    `voice-kit mock: port ${p} on 127.0.0.1 is in use; pick another with --port N or VOICE_KIT_PORT=N`;
  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    port = (held.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  it('on a port in use says which flag or variable picks another, and exits 1', async () => {
    const run = voiceKit(['mock', '--port', String(port)]);
    expect(await run.exited).toBe(1);
    expect(run.output()).toEqual({ stdout: '', stderr: `${inUse(port)}\n` });
  });

  it('takes VOICE_KIT_PORT when --port is not given', async () => {
    const run = voiceKit(['mock'], { VOICE_KIT_PORT: String(port) });
    expect(await run.exited).toBe(1);
    expect(run.output().stderr).toBe(`${inUse(port)}\n`);
  });

  it('--port wins over VOICE_KIT_PORT', async () => {
    const run = voiceKit(['mock', '--port', '0'], { VOICE_KIT_PORT: String(port) });
    const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(await run.firstLine);
    expect(Number(url?.[1])).not.toBe(port);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it.each([
    [[], { VOICE_KIT_PORT: 'abc' }, 'error: VOICE_KIT_PORT: expected an integer from 0 to 65535, got "abc"'],
    [[], { VOICE_KIT_PORT: '' }, 'error: VOICE_KIT_PORT: expected an integer from 0 to 65535, got ""'],
    [['--port='], {}, 'error: --port: expected an integer from 0 to 65535, got ""'],
    [['--port', '70000'], {}, 'error: --port: expected an integer from 0 to 65535, got "70000"'],
  ])('refuses a port that is none (%j %j) with exit code 2', async (flags, env, message) => {
    const run = voiceKit(['mock', ...flags], env);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr.split('\n')[0]).toBe(message);
  });
});

describe('voice-kit mock --control-token', () => {
  it.each([
    [
      ['--control-token', ''],
      'error: --control-token is empty: give at least 16 characters, or leave it out',
    ],
    [['--control-token='], 'error: --control-token is empty: give at least 16 characters, or leave it out'],
    [['--control-token', 'abc'], 'error: --control-token is 3 characters; a control token needs at least 16'],
    [
      ['--control-token', 'fifteen-chars!!'],
      'error: --control-token is 15 characters; a control token needs at least 16',
    ],
  ])('%j: one line, exit 2, nothing started', async (flags, message) => {
    const run = voiceKit(['mock', '--port', '0', ...flags]);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr.split('\n')[0]).toBe(message);
    expect(run.output().stdout).toBe('');
  });
});
