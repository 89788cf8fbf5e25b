import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { apiKey, spawnMock } from './http-bench.js';
import { root } from './servers.js';
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
  mode: 'sequential' | 'concurrent',
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

/**
 * Fair streaming under load (issue 25): for each format, `streams` streams of `characters[format]`
 * characters against the built mock, one after another and then all at once; the first byte of each
 * when all run at once, the total synthesis rate at once over one after another, and list requests
 * timed while they run.
 */
export async function fairStreaming(
  streams: number,
  characters: Readonly<Record<FairRow['format'], number>>,
): Promise<FairRow[]> {
  const mock = await spawnMock();
  const rows: FairRow[] = [];
  try {
    // Untimed: the engine's first syntheses (JIT, lazy imports) are paid before either run.
    for (const format of ['wav', 'pcm', 'mp3'] as const)
      await streamsFrom(mock.url, format, 2, Math.min(characters[format], 500), 'sequential', 'warm');
    for (const format of ['wav', 'pcm', 'mp3'] as const) {
      const length = characters[format];
      const pid = mock.child.pid as number;
      const cpu0 = cpuSeconds(pid);
      const one = await streamsFrom(mock.url, format, streams, length, 'sequential', `${format}-s`);
      const cpu1 = cpuSeconds(pid);
      const probe = listProbe(mock.url);
      const all = await streamsFrom(mock.url, format, streams, length, 'concurrent', `${format}-c`);
      const lists = await probe.stop();
      const cpu2 = cpuSeconds(pid);
      const first = all.timings.map((t) => t.firstByteMs);
      rows.push({
        format,
        streams,
        characters: length,
        bytes: all.timings.reduce((n, t) => n + t.bytes, 0),
        firstByteP50Ms: percentile(first, 50),
        firstByteMaxMs: Math.max(...first),
        sequentialMs: one.wallMs,
        concurrentMs: all.wallMs,
        rateRatio: one.wallMs / all.wallMs,
        serverCpuSequentialS: cpu1 - cpu0,
        serverCpuConcurrentS: cpu2 - cpu1,
        lists: lists.length,
        listP99Ms: percentile(lists, 99),
        listMaxMs: Math.max(...lists),
      });
    }
    return rows;
  } finally {
    await mock.stop();
  }
}
