/**
 * The `proxy` section: what `voice-kit proxy` adds to an exchange, against a direct connection and
 * against Prism's proxy in the same run; the time to the first byte of a real-time paced stream
 * through it; its RSS growth while a 200 MB upload streams through it to an upstream that reads
 * it all; and its RSS growth with 1,000 exchanges in flight, each holding a 2 MiB JSON body (the
 * clients' or the upstream's, red-team D9), which the one in-flight budget bounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultJudgeBytes } from '../../proxy/judge-budget.js';
import { heldLoad, warmUp } from '../../proxy/test/held-bodies.js';
import { apiKey, spawnMock, spawnPrismProxy } from './http-bench.js';
import { cliBin, freePort, memoryOf, resetPeak, type Spawned, spawnServer } from './servers.js';
import { percentile } from './stream.js';
import { streamUpload } from './upload.js';

/** Spawns the built `voice-kit proxy` in front of `upstream`, reports into a temporary folder. */
async function spawnVoiceKitProxy(
  upstream: string,
  reportDir: string,
  extra: readonly string[] = [],
): Promise<Spawned> {
  const port = await freePort();
  return spawnServer(
    'voice-kit proxy',
    process.execPath,
    [cliBin, 'proxy', '--upstream', upstream, '--port', String(port), '--report-dir', reportDir, ...extra],
    `http://127.0.0.1:${port}`,
    { path: '/v1/voice/list', headers: { 'x-api-key': apiKey } },
  );
}

/** `count` sequential GET /v1/voice/list over one keep-alive connection: each one's ms. */
async function listTimes(url: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${url}/v1/voice/list?page_size=5`, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
            res.on('error', reject);
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

/** ms to the first body byte of a real-time paced PCM stream (about 2 s of audio), and to its end. */
function pacedStream(url: string): Promise<{ firstByteMs: number; totalMs: number }> {
  const body = JSON.stringify({
    generate_text: 'A paced stream, as a live provider sends it.',
    audio_format: 'pcm',
  });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let first = Number.NaN;
    const req = http.request(`${url}/v1/text-to-speech/stream`, {
      method: 'POST',
      agent: false,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', prefer: 'pace=realtime' },
    });
    req.on('response', (res) => {
      res.on('error', reject);
      res.on('data', () => {
        if (Number.isNaN(first)) first = performance.now() - started;
      });
      res.on('end', () => resolve({ firstByteMs: first, totalMs: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An upstream that reads every upload byte and answers the §2.2 envelope with the byte count. */
async function sinkUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('error', () => undefined); // a client cut: the bench's own side reports it
    req.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error_code: 0,
          error_message: '',
          succeed: true,
          data: { object_key: 'k', file_name: 'big.wav', size: bytes, scene: 'audio' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface InFlightRow {
  /** Whose bodies are held: the clients' requests or the upstream's answers. */
  readonly side: 'request' | 'answer';
  /** The proxy's --max-judge-bytes (a huge one: as good as none, the old behaviour). */
  readonly budgetBytes: number;
  readonly exchanges: number;
  /** Exchanges that ended with the upstream's answer passed on. */
  readonly answered: number;
  /** The others, by what they came to: a status the proxy answered itself, or a client error (ECONNRESET). */
  readonly failed: Readonly<Record<string, number>>;
  readonly ms: number;
  readonly rssBeforeMiB: number;
  readonly peakGrowthMB: number;
}

/**
 * `clients` exchanges through a fresh proxy with `--max-judge-bytes budget`, each holding a JSON body
 * of 2 MiB − 200 B on `side` until all are in flight: the proxy's RSS before and its peak growth.
 */
async function inFlight(
  side: 'request' | 'answer',
  budgetBytes: number,
  clients: number,
  reportDir: string,
): Promise<InFlightRow> {
  const load = await heldLoad(clients, 2 * 1024 * 1024 - 200, side);
  let proxy: Spawned | undefined;
  try {
    proxy = await spawnVoiceKitProxy(load.url, reportDir, ['--max-judge-bytes', String(budgetBytes)]);
    const pid = proxy.child.pid as number;
    await warmUp(proxy.url);
    const before = memoryOf(pid).rss;
    resetPeak(pid);
    const started = performance.now();
    const outcomes = await load.run(proxy.url);
    const ms = performance.now() - started;
    // The upstream answers the load 400 (the request side) or 200 (the answer side).
    const expected = side === 'request' ? 400 : 200;
    const failed: Record<string, number> = {};
    for (const o of outcomes) if (o !== expected) failed[String(o)] = (failed[String(o)] ?? 0) + 1;
    return {
      side,
      budgetBytes,
      exchanges: clients,
      answered: outcomes.filter((o) => o === expected).length,
      failed,
      ms,
      rssBeforeMiB: before / 2 ** 20,
      peakGrowthMB: (memoryOf(pid).peak - before) / 1e6,
    };
  } finally {
    await proxy?.stop();
    await load.close();
  }
}

export interface LatencyRow {
  readonly path: string;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** p50 and p95 over the direct connection's. */
  readonly addedP50Ms: number;
  readonly addedP95Ms: number;
}

export interface ProxyBench {
  readonly latency: readonly LatencyRow[];
  readonly paced: readonly {
    readonly path: string;
    readonly firstByteMs: number;
    readonly totalMs: number;
  }[];
  /** Undefined when the upload failed (see `failures`). */
  readonly upload?: {
    readonly bytes: number;
    readonly status: number;
    readonly ms: number;
    readonly rssBeforeMiB: number;
    readonly peakGrowthMB: number;
  };
  /** 1,000 exchanges in flight at once, each with a 2 MiB JSON body, with the budget and without. */
  readonly inFlight: readonly InFlightRow[];
  /** The steps that failed, and why: the rest of the section still ran. */
  readonly failures: readonly { readonly step: string; readonly error: string }[];
  /** Violations the proxy reported over the whole section (the mock is clean: 0 expected). */
  readonly exitCode: number | null;
}

/**
 * Runs the section: `requests` timed list requests per path (after 200 untimed ones), interleaved in
 * `rounds`; `uploadBytes` streamed through the proxy.
 */
export async function proxyBench(
  requests: number,
  rounds: number,
  uploadBytes: number,
  inFlightClients = 1000,
): Promise<ProxyBench> {
  const reportDir = mkdtempSync(join(tmpdir(), 'vk-bench-proxy-'));
  const mock = await spawnMock();
  let ours: Spawned | undefined;
  let prism: Spawned | undefined;
  let sinkProxy: Spawned | undefined;
  const sink = await sinkUpstream();
  try {
    const failures: { step: string; error: string }[] = [];
    /** Runs one step; a failure becomes a row of `failures`, and the section goes on. */
    const step = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (error) {
        failures.push({ step: name, error: (error as NodeJS.ErrnoException).code ?? String(error) });
        return undefined;
      }
    };
    ours = await spawnVoiceKitProxy(mock.url, reportDir);
    prism = await spawnPrismProxy(mock.url);
    const paths = [
      ['direct', mock.url],
      ['voice-kit proxy', ours.url],
      ['prism proxy', prism.url],
    ] as const;
    const times = await step('list latency', async () => {
      for (const [, url] of paths) await listTimes(url, Math.min(200, requests));
      const times = new Map<string, number[]>(paths.map(([name]) => [name, []]));
      for (let round = 0; round < rounds; round++)
        for (const [name, url] of paths)
          times.get(name)?.push(...(await listTimes(url, Math.ceil(requests / rounds))));
      return times;
    });
    const direct = times?.get('direct') ?? [];
    const latency = times
      ? paths.map(([name]) => {
          const t = times.get(name) ?? [];
          return {
            path: name,
            requests: t.length,
            p50Ms: percentile(t, 50),
            p95Ms: percentile(t, 95),
            addedP50Ms: percentile(t, 50) - percentile(direct, 50),
            addedP95Ms: percentile(t, 95) - percentile(direct, 95),
          };
        })
      : [];
    const paced = [];
    for (const [name, url] of paths.slice(0, 2)) {
      const stream = await step(`paced stream, ${name}`, () => pacedStream(url));
      if (stream) paced.push({ path: name, ...stream });
    }
    // The upload: to an upstream that reads it all, so every byte crosses the proxy.
    const upload = await step('upload', async () => {
      sinkProxy = await spawnVoiceKitProxy(sink.url, join(reportDir, 'upload'));
      const pid = sinkProxy.child.pid as number;
      const before = memoryOf(pid).rss;
      resetPeak(pid);
      const sent = await streamUpload(sinkProxy.url, apiKey, uploadBytes);
      const peak = memoryOf(pid).peak;
      return {
        bytes: uploadBytes,
        status: sent.status,
        ms: sent.ms,
        rssBeforeMiB: before / 2 ** 20,
        peakGrowthMB: (peak - before) / 1e6,
      };
    });
    // The in-flight budget, side by side: the default 8 MiB, and one too large to bind (as before it).
    const inFlightRows: InFlightRow[] = [];
    for (const side of ['request', 'answer'] as const)
      for (const budget of [defaultJudgeBytes, 2 ** 50]) {
        const dir = join(reportDir, `in-flight-${side}-${budget}`);
        const row = await step(`in flight, ${side} side, budget ${budget}`, () =>
          inFlight(side, budget, inFlightClients, dir),
        );
        if (row) inFlightRows.push(row);
      }
    const exited = new Promise<number | null>((resolve) => ours?.child.once('exit', resolve));
    await ours.stop();
    return {
      latency,
      paced,
      ...(upload ? { upload } : {}),
      inFlight: inFlightRows,
      failures,
      exitCode: await exited,
    };
  } finally {
    await Promise.all([mock.stop(), ours?.stop(), prism?.stop(), sinkProxy?.stop(), sink.close()]);
    rmSync(reportDir, { recursive: true, force: true });
  }
}
