/**
 * A proxy in front of the wrong upstream is never green: an upstream URL ending in /v1 is refused before
 * it listens (exit 2), one that cannot be reached is warned about at start, and a session whose
 * exchanges were upstream errors (past --max-upstream-errors, or all of them) fails, exit 4.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgv } from '../../cli/test/run-cli.js';
import { ProxySetupError, startProxy } from '../index.js';
import { envelope, sendJson, type Upstream, upstream } from './upstreams.js';

const root = join(import.meta.dirname, '..', '..');
let up: Upstream;
let closedUrl: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-proxy-upstream-'));
  // Clean, but a request for ?drop loses its connection before any answer.
  up = await upstream((req, _body, res) => {
    if (req.url?.includes('drop')) return req.socket.destroy();
    sendJson(res, 200, envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }));
  });
  // A loopback port that was just free: nothing listens there.
  const gone = await upstream(() => {});
  closedUrl = gone.url;
  await gone.close();
});
afterAll(async () => {
  await up.close();
  await rm(dir, { recursive: true, force: true });
});

const key = { 'X-API-Key': 'k' };

/** `voice-kit proxy` with `args`, its output, and a way to stop it. */
function proxyProcess(args: readonly string[]) {
  const child = spawn(process.execPath, cliArgv(['proxy', '--port', '0', ...args]), {
    cwd: root,
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => {
    out.stdout += c;
  });
  child.stderr.on('data', (c) => {
    out.stderr += c;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  void exited.then(() => clearTimeout(timer));
  return { child, out, exited };
}

describe('an upstream URL that ends in /v1', () => {
  it.each(['/v1', '/v1/', '/gateway/v1'])('startProxy refuses …%s with a ProxySetupError', async (path) => {
    const started = startProxy({ upstream: `${up.url}${path}`, port: 0 });
    await expect(started).rejects.toThrow(ProxySetupError);
    await expect(started).rejects.toThrow(/ends in \/v1.*drop it/);
  });

  it('voice-kit proxy --upstream …/v1 exits 2 with one line that says to drop /v1', async () => {
    const { out, exited } = proxyProcess(['--upstream', `${up.url}/v1/`, '--report-dir', join(dir, 'v1')]);
    expect(await exited).toBe(2);
    const errors = out.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toEqual([
      `error: --upstream ends in /v1, which every path of the service already starts with (/v1/voice/list would become /v1/v1/voice/list): drop it: ${up.url}`,
    ]);
    expect(out.stdout).not.toContain('listening');
  });
});

describe('an upstream that cannot be reached', () => {
  it('probeUpstream says why for a closed port, and nothing for a live one', async () => {
    const dead = await startProxy({ upstream: closedUrl, port: 0 });
    const live = await startProxy({ upstream: up.url, port: 0 });
    try {
      expect(await dead.probeUpstream()).toBe('ECONNREFUSED');
      expect(await live.probeUpstream()).toBeUndefined();
    } finally {
      await dead.close();
      await live.close();
    }
  });

  it('warns at start, and the session fails with exit 4 and a line that says why', async () => {
    const { child, out, exited } = proxyProcess(['--upstream', closedUrl, '--report-dir', join(dir, 'dead')]);
    await expect
      .poll(() => out.stderr, { timeout: 15_000 })
      .toMatch(/warning: cannot connect to the upstream/);
    expect(out.stderr).toContain(`${closedUrl}/ (ECONNREFUSED): every request will be answered 502`);
    const url = /listening on (http:\/\/\S+),/.exec(out.stdout)?.[1];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${url}/v1/voice/list`, { headers: key });
      expect(res.status).toBe(502);
      await res.arrayBuffer();
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(4);
    expect(out.stdout).toMatch(/2 exchanges, 0 violations \(0 must, 0 should\), 2 upstream errors: FAIL/);
    expect(out.stdout).toContain(
      'voice-kit proxy: FAIL: every exchange (2) was an upstream error: is the upstream right and up?',
    );
  });

  it('a session of upstream errors only fails even when --max-upstream-errors allows more', async () => {
    const proxy = await startProxy({ upstream: closedUrl, port: 0, maxUpstreamErrors: 10 });
    await (await fetch(`${proxy.url}/v1/voice/list`, { headers: key })).arrayBuffer();
    const { report } = await proxy.close();
    expect(report).toMatchObject({ ok: false, upstreamFailed: true, maxUpstreamErrors: 10 });
    expect(report.counts).toMatchObject({ exchanges: 1, upstreamErrors: 1, must: 0 });
  });
});

describe('--max-upstream-errors', () => {
  /** Two clean exchanges and one whose connection the upstream drops; the report. */
  async function mixedSession(maxUpstreamErrors?: number) {
    const proxy = await startProxy({
      upstream: up.url,
      port: 0,
      ...(maxUpstreamErrors === undefined ? {} : { maxUpstreamErrors }),
    });
    for (const path of ['/v1/voice/list', '/v1/voice/list?drop', '/v1/voice/list'])
      await (await fetch(`${proxy.url}${path}`, { headers: key })).arrayBuffer();
    return (await proxy.close()).report;
  }

  it('default 0: one upstream error fails the session', async () => {
    const report = await mixedSession();
    expect(report.counts).toMatchObject({ exchanges: 3, upstreamErrors: 1, must: 0 });
    expect(report).toMatchObject({ ok: false, upstreamFailed: true, maxUpstreamErrors: 0 });
  });

  it('1: the same session passes', async () => {
    expect(await mixedSession(1)).toMatchObject({ ok: true, upstreamFailed: false });
  });

  it('the CLI refuses a value that is not a whole number, exit 2', async () => {
    const { out, exited } = proxyProcess(['--upstream', up.url, '--max-upstream-errors', 'many']);
    expect(await exited).toBe(2);
    expect(out.stderr).toContain('--max-upstream-errors: expected a whole number of errors, got "many"');
  });

  it('the CLI passes the threshold on: exit 0 with one error allowed, 4 without', async () => {
    for (const [extra, code] of [
      [['--max-upstream-errors', '1'], 0],
      [[], 4],
    ] as const) {
      const { child, out, exited } = proxyProcess([
        '--upstream',
        up.url,
        '--report-dir',
        join(dir, `mixed-${code}`),
        ...extra,
      ]);
      await expect.poll(() => out.stdout, { timeout: 15_000 }).toMatch(/listening on/);
      const url = /listening on (http:\/\/\S+),/.exec(out.stdout)?.[1];
      for (const path of ['/v1/voice/list', '/v1/voice/list?drop'])
        await (await fetch(`${url}${path}`, { headers: key })).arrayBuffer();
      child.kill('SIGTERM');
      expect(await exited).toBe(code);
      if (code === 4)
        expect(out.stdout).toContain(
          'voice-kit proxy: FAIL: 1 upstream error, past the 0 allowed (--max-upstream-errors)',
        );
    }
  });
});
