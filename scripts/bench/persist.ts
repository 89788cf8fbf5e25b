import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKey, uploadReference } from './http-bench.js';
import { type LoadResult, load } from './load.js';
import { cliBin, freePort, type Spawned, spawnServer } from './servers.js';

const auth = { 'x-api-key': apiKey };

/** The built mock, in memory, on a state dir, or on a PostgreSQL database (a replica). */
export async function spawnMockOn(name: string, stateDir?: string, stateUrl?: string): Promise<Spawned> {
  const port = await freePort();
  const args = [cliBin, 'mock', '--port', String(port), '--seed', '1'];
  if (stateDir) args.push('--state-dir', stateDir);
  if (stateUrl) args.push('--state-url', stateUrl);
  return spawnServer(name, process.execPath, args, `http://127.0.0.1:${port}`, {
    path: '/v1/voice/list',
    headers: auth,
  });
}

/**
 * `count` saves of new voices from one upload, `parallel` at a time: saves per second. With several
 * URLs (replicas of one state), the saves go round-robin over them.
 */
export async function savesPerSecond(
  at: string | readonly string[],
  count: number,
  parallel: number,
  prefix: string,
): Promise<number> {
  const urls = typeof at === 'string' ? [at] : at;
  const objectKey = await uploadReference(urls[0] as string, 2);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const url = urls[i % urls.length] as string;
      const saved = await fetch(`${url}/v1/voice/save`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ voice_id: `${prefix}_${i}`, ref_audio: objectKey }),
      });
      if (!saved.ok) throw new Error(`save ${i}: ${saved.status} ${await saved.text()}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return count / ((performance.now() - started) / 1000);
}

export async function populate(url: string, voices: number): Promise<void> {
  const answer = await fetch(`${url}/__mock/populate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ voices, seed: 1 }),
  });
  if (!answer.ok) throw new Error(`populate: ${answer.status} ${await answer.text()}`);
}

export interface PersistResult {
  readonly savesPerSecond: { memory: number; stateDir: number };
  readonly voices: number;
  readonly list: { round: number; memory: LoadResult; stateDir: LoadResult }[];
  readonly synthesis: { round: number; memory: LoadResult; stateDir: LoadResult }[];
  readonly synthesisTenClients: { round: number; memory: LoadResult; stateDir: LoadResult }[];
}

/**
 * The cost of --state-dir, against the same mock in memory in the same run: saves per second (each a
 * durable write: fsynced audio when the bytes are new, one SQLite commit with synchronous=FULL), then
 * list and synthesis throughput with `voices` voices (populated) in each, in interleaved rounds.
 */
export async function persistCost(
  saves: number,
  voices: number,
  seconds: number,
  rounds: number,
): Promise<PersistResult> {
  const dir = mkdtempSync(join(tmpdir(), 'voice-kit-bench-state-'));
  const memory = await spawnMockOn('memory');
  const stateDir = await spawnMockOn('state dir', dir);
  try {
    const savesMemory = await savesPerSecond(memory.url, saves, 8, 'm');
    const savesState = await savesPerSecond(stateDir.url, saves, 8, 's');
    await populate(memory.url, voices);
    await populate(stateDir.url, voices);
    const listUrl = (url: string) => `${url}/v1/voice/list?page_size=20`;
    const list: PersistResult['list'] = [];
    const synthesis: PersistResult['synthesis'] = [];
    const fewClients: PersistResult['synthesis'] = [];
    const speak = async (url: string, s: number, connections = 50) =>
      load(`${url}/v1/text-to-speech`, { ...auth, 'content-type': 'application/json' }, s, connections, {
        method: 'POST',
        body: JSON.stringify({ generate_text: 'Hello there.', voice_id: 'system_default' }),
      });
    // Warm-up, not recorded.
    for (const server of [memory, stateDir]) {
      await load(listUrl(server.url), auth, 1);
      await speak(server.url, 1);
    }
    // Interleaved, and in turns (memory first in odd rounds, the state dir first in even ones): on a
    // noisy machine whoever runs first in every round would otherwise pay for the drift.
    const both = async <T>(measure: (url: string) => Promise<T>, round: number) => {
      if (round % 2 === 1) {
        const m = await measure(memory.url);
        return { round, memory: m, stateDir: await measure(stateDir.url) };
      }
      const s = await measure(stateDir.url);
      return { round, memory: await measure(memory.url), stateDir: s };
    };
    for (let round = 1; round <= rounds; round += 1)
      list.push(await both((url) => load(listUrl(url), auth, seconds), round));
    for (let round = 1; round <= rounds; round += 1)
      synthesis.push(await both((url) => speak(url, seconds), round));
    // Fewer clients in flight share fewer commits: each waits for its fsync (reported, not a target).
    for (let round = 1; round <= rounds; round += 1)
      fewClients.push(await both((url) => speak(url, seconds, 10), round));
    return {
      savesPerSecond: { memory: savesMemory, stateDir: savesState },
      voices,
      list,
      synthesis,
      synthesisTenClients: fewClients,
    };
  } finally {
    await Promise.all([memory.stop(), stateDir.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
