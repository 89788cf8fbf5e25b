/**
 * One stop keeps the reports (cli/stop-signals.ts), for the spawned CLI on loopback: two SIGINTs 50 ms
 * apart (a Ctrl-C under `npm run`, from the terminal and forwarded by npm) are one stop, and the reports
 * are written; a second signal 1.5 s later quits at once with 130, writing what was judged so far.
 * The deployment is the mock behind a front that answers every request 1.5 s late (0.3 s where two
 * signals 50 ms apart are what is tested), so a stop always finds work under way; for --explore, one
 * that stops answering from the 4th list on. The suite's runs are of one case (--only): what is tested
 * is the stop, not the suite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/node/server.js';
import { cliArgv } from './run-cli.js';

const root = join(import.meta.dirname, '..', '..');
const lateMs = 1500;
/** How late the front answers: lateMs, unless a test needs less. */
let late = lateMs;

let mock: MockServer;
let front: http.Server;
let frontUrl: string;
let stalling: http.Server;
let stallingUrl: string;
/** A promise of the front's next request (its wait begins then). */
let frontReceived: () => Promise<void>;
/** Resolved once the stalling deployment has left a list unanswered. */
let stalled: Promise<void>;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  const received: (() => void)[] = [];
  frontReceived = () => new Promise((resolve) => received.push(resolve));
  front = http.createServer((req, res) => {
    for (const resolve of received.splice(0)) resolve();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const headers = { ...req.headers, host: new URL(mock.url).host };
        const up = http.request(`${mock.url}${req.url}`, { method: req.method, headers }, (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(chunks));
      }, late);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  let lists = 0;
  let stall: () => void = () => {};
  stalled = new Promise((resolve) => {
    stall = resolve;
  });
  stalling = http.createServer((req, res) => {
    if (req.url?.startsWith('/v1/voice/list') && ++lists >= 4) return stall(); // never answered
    const headers = { ...req.headers, host: new URL(mock.url).host };
    const up = http.request(`${mock.url}${req.url}`, { method: req.method, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', () => resolve()));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'vk-stop-cli-'));
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of [front, stalling]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

/** The CLI with `args`, its output, and a promise of a line matching `pattern` on either stream. */
function cli(args: string[]) {
  const child = spawn(process.execPath, cliArgv(args), {
    cwd: root,
    env: { ...process.env, VOICE_KIT_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const take = (chunk: Buffer) => {
    out += chunk;
    for (const w of [...waiters]) {
      const line = out.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = (pattern: RegExp) => new Promise<string>((resolve) => waiters.push({ pattern, resolve }));
  return { child, exited, line, output: () => out };
}

/**
 * The front answers `ms` late for the rest of this test: two signals 50 ms apart need only work that
 * outlasts 50 ms, and the work a stop waits for (the case, the cleanup, the exchange) is then shorter.
 */
function answerLate(ms: number) {
  late = ms;
  onTestFinished(() => {
    late = lateMs;
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one stop keeps the reports', { timeout: 120_000 }, () => {
  it('voice-kit proxy: two SIGINTs 50 ms apart while an exchange is under way → one stop, reports written', async () => {
    const reportDir = join(dir, 'proxy-twice');
    answerLate(300);
    const run = cli(['proxy', '--upstream', frontUrl, '--port', '0', '--report-dir', reportDir]);
    const url = /http:\/\/[\d.:]+/.exec(await run.line(/listening on/))?.[0];
    await (await fetch(`${url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } })).arrayBuffer();
    // An exchange the proxy's close waits on (its grace for open connections): under way upstream.
    const upstream = frontReceived();
    const pending = fetch(`${url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } }).catch(
      () => undefined,
    );
    await upstream;
    run.child.kill('SIGINT');
    await sleep(50);
    run.child.kill('SIGINT');
    const code = await run.exited;
    await pending;
    expect(run.output()).not.toMatch(/stopped again/);
    expect([0, 1]).toContain(code);
    const report = JSON.parse(await readFile(join(reportDir, 'proxy.json'), 'utf8'));
    expect(report.counts.exchanges).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(reportDir, 'proxy.md'))).toBe(true);
  });

  it('voice-kit conformance: two SIGINTs 50 ms apart → one stop: the run finishes its case and cleans up, full reports', async () => {
    const reportDir = join(dir, 'run-twice');
    answerLate(300);
    const run = cli([
      'conformance',
      '--base-url',
      frontUrl,
      '--api-key',
      'mock-key',
      '--only',
      'envelope.success.list',
      '--report-dir',
      reportDir,
    ]);
    await run.line(/^voice-kit conformance: \d+ cases against/);
    await frontReceived(); // a request of the run under way
    run.child.kill('SIGINT');
    await sleep(50);
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(run.output()).not.toMatch(/stopped again/);
    expect(run.output()).toMatch(/interrupted: finishing the current case/);
    expect(code).toBe(130);
    const report = JSON.parse(await readFile(join(reportDir, 'conformance.json'), 'utf8'));
    expect(report.aborted).toBe(true);
    expect(report.billing.cleanupFailures).not.toContain(
      'stopped before the cleanup: voices this run created may remain',
    );
  });

  it('voice-kit conformance: a second SIGINT 1.5 s later → exit 130 at once, what was judged written', async () => {
    const reportDir = join(dir, 'run-now');
    const run = cli([
      'conformance',
      '--base-url',
      frontUrl,
      '--api-key',
      'mock-key',
      '--only',
      'envelope.success.list',
      '--report-dir',
      reportDir,
    ]);
    await run.line(/^voice-kit conformance: \d+ cases against/);
    run.child.kill('SIGINT');
    await sleep(1500);
    const second = Date.now();
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(code).toBe(130);
    expect(Date.now() - second).toBeLessThan(lateMs);
    expect(run.output()).toMatch(/stopped again: wrote .*conformance\.json.* cases judged so far/);
    const report = JSON.parse(await readFile(join(reportDir, 'conformance.json'), 'utf8'));
    expect(report).toMatchObject({ ok: false, aborted: true, baseUrl: frontUrl });
    expect(report.billing.cleanupFailures).toEqual([
      'stopped before the cleanup: voices this run created may remain',
    ]);
    expect(await readFile(join(reportDir, 'conformance.md'), 'utf8')).toContain(frontUrl);
  });

  it('voice-kit conformance --explore: a second SIGINT 1.2 s later → exit 130 at once, what was judged written', async () => {
    const reportDir = join(dir, 'explore-now');
    const run = cli([
      'conformance',
      '--explore',
      '--base-url',
      stallingUrl,
      '--api-key',
      'mock-key',
      '--max-time',
      '60',
      '--report-dir',
      reportDir,
    ]);
    await run.line(/^exploring /);
    await stalled; // a list left unanswered: the exploration is stuck in it
    run.child.kill('SIGINT');
    await run.line(/interrupted: ending the exploration/);
    await sleep(1200);
    const second = Date.now();
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(code).toBe(130);
    expect(Date.now() - second).toBeLessThan(1000);
    expect(run.output()).toMatch(/stopped again: wrote .*explore\.json.* judged so far/);
    const report = JSON.parse(await readFile(join(reportDir, 'explore.json'), 'utf8'));
    expect(report).toMatchObject({ baseUrl: stallingUrl });
    expect(report.sequences).toBeGreaterThanOrEqual(1);
    expect(await readFile(join(reportDir, 'explore.md'), 'utf8')).toContain(stallingUrl);
  });

  it('voice-kit mock: two SIGINTs 50 ms apart close it cleanly (exit 0)', async () => {
    const run = cli(['mock', '--port', '0']);
    await run.line(/listening on/);
    run.child.kill('SIGINT');
    await sleep(50);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });
});
