/** startMockServer({ stateDir, populate }) in process: populated voices and their recordings survive a restart. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateDirError, startMockServer } from '../../entries/node.js';
import { sameBytes } from './helpers.js';

const quiet = { logger: { error: () => {} } };

describe('startMockServer({ stateDir })', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps populated voices and their recordings, and populates a dir only once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voice-kit-state-'));
    dirs.push(dir);
    const list = async (url: string) =>
      (
        await (
          await fetch(`${url}/v1/voice/list?page_size=20`, { headers: { 'X-API-Key': 'mock-key' } })
        ).json()
      ).data.list as { voice_id: string; voice_url: string; created_at: number }[];
    const first = await startMockServer({
      port: 0,
      stateDir: dir,
      populate: { voices: 6, seed: 3 },
      serviceOptions: quiet,
    });
    const before = await list(first.url);
    expect(before).toHaveLength(6);
    const recording = new Uint8Array(await (await fetch(before[2]?.voice_url ?? '')).arrayBuffer());
    // A second mock on the same dir is refused while the first runs.
    await expect(startMockServer({ port: 0, stateDir: dir, serviceOptions: quiet })).rejects.toThrow(
      StateDirError,
    );
    await first.close();

    const second = await startMockServer({
      port: 0,
      stateDir: dir,
      populate: { voices: 6, seed: 3 },
      serviceOptions: quiet,
    });
    const after = await list(second.url);
    expect(after.map((v) => [v.voice_id, v.created_at])).toEqual(
      before.map((v) => [v.voice_id, v.created_at]),
    );
    const again = new Uint8Array(await (await fetch(after[2]?.voice_url ?? '')).arrayBuffer());
    expect(sameBytes(again, recording)).toBe(true);
    await second.close();
  });
});
