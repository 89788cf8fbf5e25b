import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesizeToBytes, systemVoices } from '../../audio/index.js';
import type { VoiceProfile } from '../../audio/types.js';
import { spawnGcMock } from './keyless.js';
import { type LoadResult, load } from './load.js';
import {
  cpuMsOf,
  freePort,
  memoryOf,
  mockArgs,
  resetPeak,
  root,
  type Spawned,
  spawnServer,
} from './servers.js';
import { percentile, type StreamTiming, timeStream } from './stream.js';
import { streamUpload } from './upload.js';

export const apiKey = 'mock-key';
const auth = { 'x-api-key': apiKey };
const listProbe = { path: '/v1/voice/list', headers: auth };

/** Spawns the built mock (`dist/`), as `npm start` runs it. */
export async function spawnMock(): Promise<Spawned> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return spawnServer('mock', process.execPath, mockArgs('--port', String(port)), url, listProbe);
}

/** Spawns Prism's static mock on the same YAML, with logging silent. */
export async function spawnPrism(): Promise<Spawned> {
  const port = await freePort();
  const args = [
    'node_modules/@stoplight/prism-cli/dist/index.js',
    'mock',
    '-p',
    String(port),
    '-v',
    'silent',
  ];
  return spawnServer(
    'prism',
    process.execPath,
    [...args, 'openapi/voice-service.yaml'],
    `http://127.0.0.1:${port}`,
    listProbe,
    60_000,
  );
}

/** Spawns Prism as a validating proxy in front of `upstream`. */
export async function spawnPrismProxy(upstream: string): Promise<Spawned> {
  const port = await freePort();
  const args = [
    'node_modules/@stoplight/prism-cli/dist/index.js',
    'proxy',
    '-p',
    String(port),
    '-v',
    'silent',
  ];
  return spawnServer(
    'prism proxy',
    process.execPath,
    [...args, 'openapi/voice-service.yaml', upstream],
    `http://127.0.0.1:${port}`,
    listProbe,
    60_000,
  );
}

/** Uploads a synthesized speech recording (the kit's own voice `voice`); resolves with its object key. */
export async function uploadReference(url: string, voice = 0): Promise<string> {
  const wav = synthesizeToBytes({
    text: 'This is a reference recording for the benchmark. It has a few sentences of clear speech, with short pauses.',
    voice: systemVoices[voice] as VoiceProfile,
    format: 'wav',
  });
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'reference.wav');
  const uploaded = await fetch(`${url}/v1/files/upload`, { method: 'POST', headers: auth, body: form });
  return ((await uploaded.json()) as { data: { object_key: string } }).data.object_key;
}

/** Uploads one speech recording and creates `count` voices from it, so the list has real entries. */
export async function seedVoices(url: string, count: number): Promise<void> {
  const objectKey = await uploadReference(url);
  for (let i = 0; i < count; i += 1) {
    const saved = await fetch(`${url}/v1/voice/save`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ voice_id: `bench_voice_${String(i).padStart(2, '0')}`, ref_audio: objectKey }),
    });
    if (!saved.ok) throw new Error(`seeding voice ${i}: ${saved.status} ${await saved.text()}`);
  }
}

export interface ThroughputRow {
  readonly server: string;
  readonly round: number;
  readonly result: LoadResult;
  /** The server's CPU time per answered request, µs (Linux; NaN elsewhere). */
  readonly cpuUsPerRequest: number;
}

/** An answer's body and its header lines as sent (names as spelled, in order), without the connection's own. */
function rawAnswer(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Buffer; headers: string[] }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const own = ['date', 'connection', 'keep-alive', 'transfer-encoding'];
        const lines = res.rawHeaders.flatMap((value, i, all) =>
          i % 2 === 0 && !own.includes(value.toLowerCase()) ? [value, all[i + 1] as string] : [],
        );
        resolve({ body: Buffer.concat(chunks), headers: lines });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * The order of the servers in a round: the mock and the bare server side by side, in turns (the mock
 * first in odd rounds, the bare server in even ones), Prism last. Whoever runs first in every round
 * pays for the machine's drift; with Prism between them (as this once was) the two compared ran ten
 * seconds apart, and their ratio swung from 76 % to 92 % between two rounds on a quiet machine.
 */
export function roundOrder<T>(round: number, mock: T, bare: T, prism: T): T[] {
  return round % 2 === 1 ? [mock, bare, prism] : [bare, mock, prism];
}

/** The list section's rows: the interleaved rounds, then the mock and the bare server after a rest. */
export interface ListThroughput {
  readonly rows: ThroughputRow[];
  /**
   * One more round of the mock and the bare server after `restSeconds` with no load: the speed a user's
   * next load gets after a pause. Empty when `restSeconds` is 0.
   */
  readonly rested: ThroughputRow[];
  readonly restSeconds: number;
}

/**
 * List throughput on the mock, the bare server and Prism, `rounds` interleaved rounds after a warm-up,
 * then the mock and the bare server once more after `restSeconds` at rest.
 */
export async function listThroughput(
  seconds: number,
  rounds: number,
  warmUpSeconds = 2,
  restSeconds = 0,
): Promise<ListThroughput> {
  const mock = await spawnMock();
  const prism = await spawnPrism();
  let bare: Spawned | undefined;
  const bodyFile = join(tmpdir(), `voice-kit-bench-list-${process.pid}.json`);
  const headerFile = `${bodyFile}.headers`;
  try {
    await seedVoices(mock.url, 20);
    // The bare server answers the very bytes the mock sends: its body and its own header lines (CORS
    // included; Node adds Date and Connection to both), so only the work behind them differs.
    const listed = await rawAnswer(`${mock.url}/v1/voice/list`, auth);
    writeFileSync(bodyFile, listed.body);
    writeFileSync(headerFile, JSON.stringify(listed.headers));
    const barePort = await freePort();
    bare = await spawnServer(
      'bare node:http',
      process.execPath,
      ['scripts/bench/bare-server.mjs', String(barePort), bodyFile, headerFile],
      `http://127.0.0.1:${barePort}`,
      listProbe,
    );
    // Warm-up, not recorded: the first seconds of any server (JIT tiers, heap growing) and of the load
    // generator itself are slower, and the first server measured would otherwise pay for them.
    for (const server of [mock, prism, bare]) await load(`${server.url}/v1/voice/list`, auth, warmUpSeconds);
    const measured = async (server: Spawned, round: number): Promise<ThroughputRow> => {
      const pid = server.child.pid as number;
      const cpuBefore = cpuMsOf(pid) ?? Number.NaN;
      const result = await load(`${server.url}/v1/voice/list`, auth, seconds);
      const cpuMs = (cpuMsOf(pid) ?? Number.NaN) - cpuBefore;
      return { server: server.name, round, result, cpuUsPerRequest: (1000 * cpuMs) / result.requests };
    };
    const rows: ThroughputRow[] = [];
    for (let round = 1; round <= rounds; round += 1)
      for (const server of roundOrder(round, mock, bare, prism)) rows.push(await measured(server, round));
    const rested: ThroughputRow[] = [];
    if (restSeconds > 0) {
      await new Promise((resolve) => setTimeout(resolve, restSeconds * 1000));
      for (const server of [mock, bare]) rested.push(await measured(server, rounds + 1));
    }
    return { rows, rested, restSeconds };
  } finally {
    await Promise.all([mock.stop(), prism.stop(), bare?.stop()]);
    rmSync(bodyFile, { force: true });
    rmSync(headerFile, { force: true });
  }
}

export interface LatencySummary {
  readonly server: string;
  readonly requests: number;
  readonly firstByteP50Ms: number;
  readonly firstByteP99Ms: number;
  readonly totalP50Ms: number;
  readonly totalP99Ms: number;
  readonly chunked: boolean;
  readonly bytes: number;
}

/** Runs `requests` timed streams, after `warmUp` untimed ones, from a fresh client process (stream-client.ts). */
function timedStreams(
  url: string,
  text: string,
  warmUp: number,
  requests: number,
  fresh: boolean,
): Promise<StreamTiming[]> {
  const args = [url, apiKey, String(warmUp), String(requests), ...(fresh ? ['fresh'] : [])];
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/bench/stream-client.ts', ...args],
      { cwd: root, maxBuffer: 16 * 2 ** 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as StreamTiming[])),
    );
    child.stdin?.end(text);
  });
}

async function latencyOf(
  server: string,
  url: string,
  text: string,
  warmUp: number,
  requests: number,
  fresh = false,
): Promise<LatencySummary> {
  const timings = await timedStreams(url, text, warmUp, requests, fresh);
  const first = timings.map((t) => t.firstByteMs);
  const total = timings.map((t) => t.totalMs);
  return {
    server,
    requests,
    firstByteP50Ms: percentile(first, 50),
    firstByteP99Ms: percentile(first, 99),
    totalP50Ms: percentile(total, 50),
    totalP99Ms: percentile(total, 99),
    chunked: timings.every((t) => t.chunked),
    bytes: timings[0]?.bytes ?? 0,
  };
}

/**
 * The first stream each of `mocks` fresh mocks answers, one stream each, sent by a client started once
 * the mock answers its first list (as a client of `voice-kit mock` comes along after it is ready).
 */
async function firstStreams(text: string, mocks: number): Promise<LatencySummary> {
  const timings: StreamTiming[] = [];
  for (let i = 0; i < mocks; i += 1) {
    const mock = await spawnMock();
    try {
      timings.push(...(await timedStreams(mock.url, text, 0, 1, false)));
    } finally {
      await mock.stop();
    }
  }
  const first = timings.map((t) => t.firstByteMs);
  const total = timings.map((t) => t.totalMs);
  return {
    server: 'mock, its first stream',
    requests: mocks,
    firstByteP50Ms: percentile(first, 50),
    firstByteP99Ms: percentile(first, 99),
    totalP50Ms: percentile(total, 50),
    totalP99Ms: percentile(total, 99),
    chunked: timings.every((t) => t.chunked),
    bytes: timings[0]?.bytes ?? 0,
  };
}

/**
 * Time to first audio byte and total time for a 5,000-character stream: the mock (the same text each
 * time, then a new text each time), the first stream of fresh mocks, then via Prism's proxy.
 */
export async function streamLatency(
  requests: number,
  proxyRequests: number,
  freshMocks = 5,
): Promise<LatencySummary[]> {
  const text = 'Hello there, this is a streaming benchmark. '.repeat(200).slice(0, 5000);
  const cold = await firstStreams(text, freshMocks);
  const mock = await spawnMock();
  let proxy: Spawned | undefined;
  try {
    // Three untimed streams first, from the same client process: JIT on both sides.
    const direct = await latencyOf('mock', mock.url, text, 3, requests);
    // The same, with a text never seen before each time: what the mock does without its plan memo.
    const fresh = await latencyOf('mock, new texts', mock.url, text, 3, requests, true);
    proxy = await spawnPrismProxy(mock.url);
    const viaPrism = await latencyOf('mock via prism proxy', proxy.url, text, 1, proxyRequests);
    return [direct, fresh, cold, viaPrism];
  } finally {
    await Promise.all([mock.stop(), proxy?.stop()]);
  }
}

/** Startup time, spawn until the first answer, median of `rounds`, for the mock and Prism. */
export async function startup(
  rounds: number,
): Promise<{ server: string; medianMs: number; samples: number[] }[]> {
  const out = [];
  for (const [name, spawnIt] of [
    ['mock', spawnMock],
    ['prism', spawnPrism],
  ] as const) {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const server = await spawnIt();
      samples.push(server.startupMs);
      await server.stop();
    }
    out.push({ server: name, medianMs: percentile(samples, 50), samples });
  }
  return out;
}

/** 50 MiB uploads per second, and the mock's peak RSS growth while a 1 GiB body is refused. */
export async function uploads(count: number, hugeBytes: number) {
  const mock = await spawnMock();
  try {
    const limit = 52_428_800;
    let ms = 0;
    for (let i = 0; i < count; i += 1) {
      const result = await streamUpload(mock.url, apiKey, limit);
      if (result.status !== 200) throw new Error(`50 MiB upload answered ${result.status}`);
      ms += result.ms;
    }
    const pid = mock.child.pid as number;
    const before = memoryOf(pid).rss;
    resetPeak(pid);
    const refused = await streamUpload(mock.url, apiKey, hugeBytes);
    const peak = memoryOf(pid).peak;
    return {
      uploads: count,
      mibPerSecond: (count * limit) / (1 << 20) / (ms / 1000),
      hugeBody: {
        bytes: hugeBytes,
        status: refused.status,
        ms: refused.ms,
        sentBytes: refused.sentBytes,
        rssBeforeMiB: before / (1 << 20),
        peakGrowthMiB: (peak - before) / (1 << 20),
      },
    };
  } finally {
    await mock.stop();
  }
}

/**
 * `streams` concurrent streaming syntheses: do all complete, and does memory come back? RSS at rest
 * (12 s after a warm stream) and 12 s after.
 */
export async function concurrency(streams: number, settleMs = 12_000) {
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));
  const mock = await spawnMock();
  try {
    const pid = mock.child.pid as number;
    const text = 'A concurrent stream of speech, to see that every one of them completes. '.repeat(5);
    await timeStream(`${mock.url}/v1/text-to-speech/stream`, apiKey, { generate_text: text });
    await settle();
    const baseline = memoryOf(pid).rss;
    const results = await Promise.allSettled(
      Array.from({ length: streams }, () =>
        timeStream(`${mock.url}/v1/text-to-speech/stream`, apiKey, { generate_text: text }),
      ),
    );
    const completed = results.filter((r) => r.status === 'fulfilled');
    const sizes = new Set(completed.map((r) => r.value.bytes));
    const during = memoryOf(pid).peak;
    await settle();
    const after = memoryOf(pid).rss;
    return {
      streams,
      completed: completed.length,
      identicalSizes: sizes.size === 1,
      baselineMiB: baseline / (1 << 20),
      peakMiB: during / (1 << 20),
      afterMiB: after / (1 << 20),
      growthAfterMB: (after - baseline) / 1e6,
      keptHeapMB: await keptAfterStreams(streams, text, Math.min(settleMs, 3000)),
    };
  } finally {
    await mock.stop();
  }
}

/**
 * The same streams against the bench's own copy of the mock, which collects when asked
 * (scripts/bench/gc-mock.mjs): its heap after a full collection, growth in MB. An idle process
 * collects no garbage, so RSS at rest is mostly garbage waiting; this is what the streams left kept.
 */
async function keptAfterStreams(streams: number, text: string, restMs: number): Promise<number> {
  const mock = await spawnGcMock();
  try {
    const stream = () => timeStream(`${mock.url}/v1/text-to-speech/stream`, apiKey, { generate_text: text });
    await stream();
    // The first answer starts the warm-up: it ends before the baseline.
    await new Promise((resolve) => setTimeout(resolve, restMs));
    const before = await mock.collected();
    await Promise.allSettled(Array.from({ length: streams }, stream));
    const after = await mock.collected();
    return (after.heapUsed - before.heapUsed) / 1e6;
  } finally {
    await mock.stop();
  }
}
