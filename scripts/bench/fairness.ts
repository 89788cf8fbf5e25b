import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKey, spawnMock } from './http-bench.js';
import { spawnGcMock } from './keyless.js';
import { freePort, memoryOf, mockArgs, resetPeak, root, type Spawned, spawnServer } from './servers.js';
import { percentile, type StreamTiming } from './stream.js';

/** One format's run: the same streams one after another, then all at once, with lists timed meanwhile. */
export interface FairRow {
  readonly format: 'wav' | 'pcm' | 'mp3';
  readonly streams: number;
  readonly characters: number;
  readonly bytes: number;
  /** All at once: first body byte of each stream, from its request. */
  readonly firstByteP50Ms: number;
  readonly firstByteMaxMs: number;
  /** The same, as the mock's request log has it: from the request's arrival to its first chunk written. */
  readonly mockFirstByteP50Ms: number;
  readonly mockFirstByteMaxMs: number;
  /** The same client against a bare node:http server streaming as many bytes: the client's own floor. */
  readonly floorFirstByteP50Ms: number;
  readonly floorFirstByteMaxMs: number;
  /** Wall time of the same streams one after another, and all at once. */
  readonly sequentialMs: number;
  readonly concurrentMs: number;
  /** Total synthesis rate all at once over one after another (same total audio). */
  readonly rateRatio: number;
  /** CPU seconds the mock process spent on each run (user + system; NaN off Linux). */
  readonly serverCpuSequentialS: number;
  readonly serverCpuConcurrentS: number;
  /** GET /v1/voice/list, one at a time, while the streams ran at once. */
  readonly lists: number;
  readonly listP99Ms: number;
  readonly listMaxMs: number;
}

/** CPU seconds a process has used so far (Linux /proc; NaN elsewhere), user and system together. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are the 12th and 13th fields after the command name, in clock ticks (100 Hz).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Runs fair-client.ts in a process of its own. */
function streamsFrom(
  url: string,
  format: string,
  count: number,
  characters: number,
  mode: 'sequential' | 'concurrent' | 'aborted',
  tag: string,
): Promise<{ wallMs: number; timings: StreamTiming[] }> {
  const args = [url, apiKey, format, String(count), String(characters), mode, tag];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/bench/fair-client.ts', ...args],
      { cwd: root, maxBuffer: 16 * 2 ** 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

/** Times list requests one after another (a pause of 5 ms between them) until `stop()`. */
function listProbe(url: string): { stop(): Promise<number[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let stopped = false;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      get(`${url}/v1/voice/list`, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
        res.resume();
        res.on('end', () => {
          times.push(performance.now() - started);
          resolve();
        });
      }).on('error', reject);
    });
  const loop = (async () => {
    while (!stopped) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      agent.destroy();
      return times;
    },
  };
}

/** The newest request number in the mock's request log (0 when it is empty). */
async function lastSeq(url: string): Promise<number> {
  const log = (await (await fetch(`${url}/__mock/requests`)).json()) as { data: { seq: number }[] };
  return log.data.reduce((last, entry) => Math.max(last, entry.seq), 0);
}

/** The mock's own time to first byte (request log) of the streams numbered after `after` whose text starts with `tag`. */
async function mockFirstBytes(url: string, after: number, tag: string): Promise<number[]> {
  const log = (await (await fetch(`${url}/__mock/requests?after=${after}`)).json()) as {
    data: { body: string | null; stream: { ttfbMs: number } | null }[];
  };
  const timed = new RegExp(`^\\{"generate_text":"${tag} \\d`);
  return log.data.flatMap((entry) =>
    entry.stream && timed.test(entry.body ?? '') ? [entry.stream.ttfbMs] : [],
  );
}

/** The 100 ms chunk of the mock's streams at 24 kHz, 16-bit mono, in bytes. */
const chunkBytes = 4800;

/** The same client, all at once, against bare-stream.mjs sending `bytes` bytes per stream: the floor. */
async function floorFirstBytes(format: string, streams: number, length: number, bytes: number) {
  const port = await freePort();
  const floor: Spawned = await spawnServer(
    'bare stream',
    process.execPath,
    ['scripts/bench/bare-stream.mjs', String(port), String(bytes), String(chunkBytes)],
    `http://127.0.0.1:${port}`,
    { path: '/' },
  );
  try {
    // Twice, the first untimed: the mock it stands beside has served hundreds of streams already.
    await streamsFrom(floor.url, format, streams, length, 'concurrent', `${format}-w`);
    const all = await streamsFrom(floor.url, format, streams, length, 'concurrent', `${format}-f`);
    return all.timings.map((t) => t.firstByteMs);
  } finally {
    await floor.stop();
  }
}

/**
 * The built mock with a request log long enough to keep a run's streams while the list probe's
 * requests pass (the default ring of 200 is filled by them within a second).
 */
async function spawnLoggingMock(): Promise<Spawned> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-kit-fairness-'));
  const config = join(dir, 'mock.json');
  writeFileSync(config, JSON.stringify({ requestLogSize: 5000 }));
  const port = await freePort();
  try {
    return await spawnServer(
      'mock',
      process.execPath,
      mockArgs('--port', String(port), '--config', config),
      `http://127.0.0.1:${port}`,
      { path: '/v1/voice/list', headers: { 'x-api-key': apiKey } },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One format's row: one after another, then all at once with lists timed meanwhile, then the floor. */
async function formatRow(
  mock: Spawned,
  format: FairRow['format'],
  streams: number,
  length: number,
): Promise<FairRow> {
  const pid = mock.child.pid as number;
  const cpu0 = cpuSeconds(pid);
  const one = await streamsFrom(mock.url, format, streams, length, 'sequential', `${format}-s`);
  const cpu1 = cpuSeconds(pid);
  const seq = await lastSeq(mock.url);
  const probe = listProbe(mock.url);
  const all = await streamsFrom(mock.url, format, streams, length, 'concurrent', `${format}-c`);
  const lists = await probe.stop();
  const cpu2 = cpuSeconds(pid);
  const own = await mockFirstBytes(mock.url, seq, `${format}-c`);
  const first = all.timings.map((t) => t.firstByteMs);
  const bytes = all.timings.reduce((n, t) => n + t.bytes, 0);
  const floor = await floorFirstBytes(format, streams, length, Math.round(bytes / streams));
  return {
    format,
    streams,
    characters: length,
    bytes,
    firstByteP50Ms: percentile(first, 50),
    firstByteMaxMs: Math.max(...first),
    mockFirstByteP50Ms: percentile(own, 50),
    mockFirstByteMaxMs: Math.max(...own),
    floorFirstByteP50Ms: percentile(floor, 50),
    floorFirstByteMaxMs: Math.max(...floor),
    sequentialMs: one.wallMs,
    concurrentMs: all.wallMs,
    rateRatio: one.wallMs / all.wallMs,
    serverCpuSequentialS: cpu1 - cpu0,
    serverCpuConcurrentS: cpu2 - cpu1,
    lists: lists.length,
    listP99Ms: percentile(lists, 99),
    listMaxMs: Math.max(...lists),
  };
}

/**
 * Fair streaming under load: for each format, `streams` streams of `characters[format]`
 * characters against the built mock, one after another and then all at once; the first byte of each
 * when all run at once (as the client saw it, as the mock's request log has it, and the same client's
 * floor against a bare node:http server), the total synthesis rate at once over one after another, and
 * list requests timed while they run.
 */
export async function fairStreaming(
  streams: number,
  characters: Readonly<Record<FairRow['format'], number>>,
): Promise<FairRow[]> {
  const mock = await spawnLoggingMock();
  const rows: FairRow[] = [];
  try {
    // Untimed: the engine's first syntheses (JIT, lazy imports) are paid before either run.
    for (const format of ['wav', 'pcm', 'mp3'] as const)
      await streamsFrom(mock.url, format, 2, Math.min(characters[format], 500), 'sequential', 'warm');
    for (const format of ['wav', 'pcm', 'mp3'] as const)
      rows.push(await formatRow(mock, format, streams, characters[format]));
    return rows;
  } finally {
    await mock.stop();
  }
}

/** Memory of the mock around `streams` streams opened at once and each cut after its first bytes. */
export interface AbortedRow {
  readonly streams: number;
  readonly characters: number;
  /** How many streams had their first bytes before the client cut them. */
  readonly sounded: number;
  /** RSS at rest, before the streams (the mock started, warmed and quiet for `settleMs`). */
  readonly baselineMiB: number;
  readonly peakMiB: number;
  /** RSS `settleMs` after the last stream was cut. */
  readonly afterMiB: number;
  readonly settleMs: number;
  readonly growthAfterMB: number;
  /**
   * What the same cuts leave the mock holding, MB: its heap after a full collection, over the same
   * before them, in a process the bench can ask to collect (scripts/bench/gc-mock.mjs). An idle Node
   * process collects no garbage (V8 collects as it allocates), so RSS at rest is mostly garbage
   * waiting; this is what is kept.
   */
  readonly keptHeapMB: number;
  /** The peer: a bare node:http server streaming zeros (bare-stream.mjs), the same cuts, the same wait. */
  readonly bareGrowthAfterMB: number;
}

/**
 * `streams` WAV streams of `characters` characters opened at once and cut by the client after their
 * first bytes (memory returns to its baseline): the mock's RSS at rest before, at its peak,
 * and `settleMs` after; beside it, what a bare node:http server keeps after the same cuts (Node's own
 * sockets and buffers, which no server of ours can give back sooner).
 */
export async function abortedStreams(
  streams: number,
  characters: number,
  /** How long at rest before the baseline, and after the last cut (12 s; shorter for a smoke run, which judges nothing). */
  settleMs = 12_000,
): Promise<AbortedRow> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs));
  const mock = await spawnMock();
  let row: Omit<AbortedRow, 'bareGrowthAfterMB' | 'keptHeapMB'>;
  try {
    const pid = mock.child.pid as number;
    await streamsFrom(mock.url, 'wav', 2, characters, 'sequential', 'warm');
    await settle();
    const baseline = memoryOf(pid).rss;
    resetPeak(pid);
    const cut = await streamsFrom(mock.url, 'wav', streams, characters, 'aborted', 'cut');
    const peak = memoryOf(pid).peak;
    await settle();
    const after = memoryOf(pid).rss;
    row = {
      streams,
      characters,
      sounded: cut.timings.length,
      baselineMiB: baseline / 2 ** 20,
      peakMiB: peak / 2 ** 20,
      afterMiB: after / 2 ** 20,
      settleMs,
      growthAfterMB: (after - baseline) / 1e6,
    };
  } finally {
    await mock.stop();
  }
  const keptHeapMB = await keptAfterCuts(streams, characters, Math.min(settleMs, 3000));
  return { ...row, keptHeapMB, bareGrowthAfterMB: await bareCutGrowth(streams, characters, settle) };
}

/**
 * The same cuts against a mock that collects when asked: its heap after a full collection, growth in
 * MB. `restMs` after the first streams lets the warm-up they start end before the baseline.
 */
async function keptAfterCuts(streams: number, characters: number, restMs: number): Promise<number> {
  const mock = await spawnGcMock();
  try {
    await streamsFrom(mock.url, 'wav', 2, characters, 'sequential', 'warm');
    await new Promise((resolve) => setTimeout(resolve, restMs));
    const before = await mock.collected();
    await streamsFrom(mock.url, 'wav', streams, characters, 'aborted', 'cut');
    // The cut connections close on the mock's side in the next turns; a second is ample.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await mock.collected();
    return (after.heapUsed - before.heapUsed) / 1e6;
  } finally {
    await mock.stop();
  }
}

/** The same cuts against bare-stream.mjs: its RSS growth after the same wait, MB. */
async function bareCutGrowth(streams: number, characters: number, settle: () => Promise<unknown>) {
  const port = await freePort();
  const bare: Spawned = await spawnServer(
    'bare stream',
    process.execPath,
    ['scripts/bench/bare-stream.mjs', String(port), String(100 * chunkBytes), String(chunkBytes)],
    `http://127.0.0.1:${port}`,
    { path: '/' },
  );
  try {
    const pid = bare.child.pid as number;
    await streamsFrom(bare.url, 'wav', 2, characters, 'sequential', 'warm');
    await settle();
    const baseline = memoryOf(pid).rss;
    await streamsFrom(bare.url, 'wav', streams, characters, 'aborted', 'cut');
    await settle();
    return (memoryOf(pid).rss - baseline) / 1e6;
  } finally {
    await bare.stop();
  }
}
