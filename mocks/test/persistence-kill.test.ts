/**
 * The guarantee of --state-dir, tested as a user meets it: the CLI in a child process, saves, uploads
 * and syntheses fired at it, SIGKILL while they are in flight, a restart on the same directory at once,
 * and every acknowledged thing compared. Then the directory is damaged in each way the docs name, and
 * the start must stop with exit 2 and a message naming the file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgv, root } from '../../cli/test/run-cli.js';
import { json, referenceWav, sameBytes, uploadInit } from './helpers.js';

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** `voice-kit mock --port 0 --state-dir dir ...`; resolves with its URL, or rejects with its exit and stderr. */
function startMock(dir: string | undefined, extra: string[] = []): Promise<Running> {
  const state = dir === undefined ? [] : ['--state-dir', dir];
  const child = spawn(process.execPath, cliArgv(['mock', '--port', '0', '--seed', '7', ...state, ...extra]), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/[\d.:]+)/.exec(stdout)?.[1];
      if (url) resolve({ child, url, exited, stderr: () => stderr });
    });
    void exited.then((code) => reject(Object.assign(new Error(stderr), { code, stderr })));
  });
}

/** Exit code and stderr of a start that must fail. */
async function failedStart(
  dir: string | undefined,
  extra: string[] = [],
): Promise<{ code: number; stderr: string }> {
  try {
    const running = await startMock(dir, extra);
    running.child.kill('SIGKILL');
    throw new Error('the mock started');
  } catch (error) {
    const { code, stderr } = error as { code?: number; stderr?: string };
    if (code === undefined) throw error;
    return { code, stderr: stderr ?? '' };
  }
}

const kill = async (running: Running) => {
  running.child.kill('SIGKILL');
  await running.exited;
};

// biome-ignore lint/suspicious/noExplicitAny: tests read answer data by path
type Envelope = { succeed: boolean; data: any };

/** The envelope of a request; status 0 and no data when the connection died (the mock was killed). */
async function tryCall(url: string, init: RequestInit): Promise<{ status: number; body: Envelope }> {
  try {
    const response = await fetch(url, init);
    return { status: response.status, body: (await response.json()) as Envelope };
  } catch {
    return { status: 0, body: { succeed: false, data: null } };
  }
}

async function bytesOf(url: string, init?: RequestInit): Promise<Uint8Array> {
  const response = await fetch(url, init);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

const tts = (voice_id: string) => json({ generate_text: 'The same words, the same bytes.', voice_id });

// Each test has its own state dirs and mocks: they run at once (most of their time is processes
// starting and SQLite syncing to disk).
describe('voice-kit mock --state-dir', { concurrent: true }, () => {
  const dirs: string[] = [];
  const running: Running[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voice-kit-state-'));
    dirs.push(dir);
    return dir;
  };
  const start = async (dir: string | undefined, extra?: string[]) => {
    const mock = await startMock(dir, extra);
    running.push(mock);
    return mock;
  };
  afterAll(async () => {
    for (const mock of running) mock.child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  beforeAll(() => {
    referenceWav();
  });

  it('keeps everything acknowledged before a kill -9 in flight, and nothing twice', async () => {
    const dir = await newDir();
    const first = await start(dir);
    const reference = referenceWav();
    // A settled voice first: its synthesis and voice_url bytes are compared after the restart.
    const upload = await tryCall(`${first.url}/v1/files/upload`, uploadInit(reference, 'ref.wav'));
    const key = upload.body.data.object_key as string;
    expect(
      (await tryCall(`${first.url}/v1/voice/save`, json({ voice_id: 'anchor', ref_audio: key }))).body
        .succeed,
    ).toBe(true);
    const speechBefore = await bytesOf(`${first.url}/v1/text-to-speech`, tts('anchor'));
    const advanced = await tryCall(`${first.url}/__mock/clock/advance`, json({ seconds: 86_400 }));
    expect(advanced.body.succeed).toBe(true);
    // node:sqlite's ExperimentalWarning stays off the user's screen.
    expect(first.stderr()).toBe('');

    // In flight: uploads, saves of distinct ids, four saves racing for one id, syntheses.
    const acked = { uploads: [] as string[], voices: [] as string[], racers: 0, characters: 0 };
    const flight: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++)
      flight.push(
        tryCall(`${first.url}/v1/files/upload`, uploadInit(reference, `u${i}.wav`)).then((r) => {
          if (r.body.succeed) acked.uploads.push(r.body.data.object_key);
        }),
      );
    for (let i = 0; i < 10; i++)
      flight.push(
        tryCall(`${first.url}/v1/voice/save`, json({ voice_id: `v${i}`, ref_audio: key })).then((r) => {
          if (r.body.succeed) acked.voices.push(`v${i}`);
        }),
      );
    for (let i = 0; i < 4; i++)
      flight.push(
        tryCall(`${first.url}/v1/voice/save`, json({ voice_id: 'contested', ref_audio: key })).then((r) => {
          if (r.body.succeed) acked.racers += 1;
        }),
      );
    for (let i = 0; i < 6; i++)
      flight.push(
        fetch(`${first.url}/v1/text-to-speech`, tts('anchor'))
          .then(async (r) => {
            await r.arrayBuffer();
            if (r.status === 200) acked.characters += 'The same words, the same bytes.'.length;
          })
          .catch(() => {}),
      );
    // Killed once some answers are out and others are not.
    while (acked.uploads.length + acked.voices.length < 6) await new Promise((r) => setTimeout(r, 5));
    await kill(first);
    await Promise.all(flight);
    const killedAt = Date.now();

    const second = await start(dir);
    const list = await tryCall(`${second.url}/v1/voice/list?page_size=20`, {
      headers: { 'X-API-Key': 'mock-key' },
    });
    const ids = (list.body.data.list as { voice_id: string; voice_url: string }[]).map((v) => v.voice_id);
    for (const id of acked.voices) expect(ids).toContain(id);
    expect(ids.filter((id) => id === 'contested').length).toBeLessThanOrEqual(1);
    expect(acked.racers).toBeLessThanOrEqual(1);
    if (acked.racers === 1) expect(ids).toContain('contested');
    // The same synthesis bytes, and voice_url serving the reference bytes uploaded.
    expect(sameBytes(await bytesOf(`${second.url}/v1/text-to-speech`, tts('anchor')), speechBefore)).toBe(
      true,
    );
    const anchor = (list.body.data.list as { voice_id: string; voice_url: string }[]).find(
      (v) => v.voice_id === 'anchor',
    );
    expect(sameBytes(await bytesOf(anchor?.voice_url ?? ''), reference)).toBe(true);
    // The clock kept its day of advance.
    const clock = await tryCall(`${second.url}/__mock/clock`, {});
    expect(clock.body.data.now * 1000 - killedAt).toBeGreaterThan(86_000_000);
    // Billing: one creation per voice that exists, no free use handed out again.
    const ledger = (await tryCall(`${second.url}/__mock/ledger`, {})).body.data;
    const usage = ledger.accounts['account-1'];
    const customVoices = ids.length;
    expect(usage.freeUsesConsumed + usage.chargedCreations.length).toBe(customVoices);
    expect(usage.synthesizedCharacters).toBeGreaterThanOrEqual(acked.characters + 31);
    // Every acknowledged upload still works as a reference, and the quota counts exactly what is stored.
    for (const objectKey of acked.uploads.slice(0, 3)) {
      const saved = await tryCall(
        `${second.url}/v1/voice/save`,
        json({ voice_id: `after_${objectKey.slice(4, 12)}`, ref_audio: objectKey }),
      );
      expect(saved.body.succeed).toBe(true);
    }
    const snapshot = (await tryCall(`${second.url}/__mock/snapshot`, {})).body.data;
    const stored = snapshot.uploads.records.length as number;
    expect(stored).toBeGreaterThanOrEqual(acked.uploads.length + 1);
    let more = 0;
    for (;;) {
      const r = await tryCall(
        `${second.url}/v1/files/upload`,
        uploadInit(new Uint8Array([1, 2, 3]), 'x.wav'),
      );
      if (!r.body.succeed) break;
      more += 1;
    }
    // The first upload was made a day of mock time ago: out of the hourly window.
    expect(stored - 1 + more).toBe(30);
    await kill(second);
  });

  it('keeps deletes, resets and restores across a restart', async () => {
    const dir = await newDir();
    const first = await start(dir);
    const upload = await tryCall(`${first.url}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    const key = upload.body.data.object_key as string;
    for (const id of ['keep', 'gone'])
      expect(
        (await tryCall(`${first.url}/v1/voice/save`, json({ voice_id: id, ref_audio: key }))).body.succeed,
      ).toBe(true);
    const snapshot = (await tryCall(`${first.url}/__mock/snapshot`, {})).body.data;
    const deleted = await tryCall(`${first.url}/v1/voice/gone`, {
      method: 'DELETE',
      headers: { 'X-API-Key': 'mock-key' },
    });
    expect(deleted.body.succeed).toBe(true);
    await kill(first);

    const listIds = async (url: string) =>
      (
        (await tryCall(`${url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } })).body.data.list as {
          voice_id: string;
        }[]
      ).map((v) => v.voice_id);
    const second = await start(dir);
    expect(await listIds(second.url)).toEqual(['keep']);
    expect((await tryCall(`${second.url}/__mock/reset`, { method: 'POST' })).body.succeed).toBe(true);
    await kill(second);

    const third = await start(dir);
    expect(await listIds(third.url)).toEqual([]);
    const ledger = (await tryCall(`${third.url}/__mock/ledger`, {})).body.data;
    expect(ledger.accounts).toEqual({});
    // A restore brings back the voices (their bytes are those of this dir: the upload row is restored too).
    const restored = await tryCall(`${third.url}/__mock/restore`, json(snapshot));
    expect(restored.body.succeed).toBe(true);
    await kill(third);

    const fourth = await start(dir);
    expect(await listIds(fourth.url)).toEqual(['keep', 'gone']);
    await kill(fourth);
  });

  it('creates a missing dir, refuses a second mock on it, and starts again at once after kill -9', async () => {
    const dir = join(await newDir(), 'not', 'there', 'yet');
    const first = await start(dir);
    const second = await failedStart(dir);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by another voice-kit mock/);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    await kill(first);
    const again = await start(dir);
    await kill(again);
  });

  it('stops with exit 2 and names the file when the dir is damaged', async () => {
    const dir = await newDir();
    const first = await start(dir);
    const upload = await tryCall(`${first.url}/v1/files/upload`, uploadInit(referenceWav(), 'ref.wav'));
    expect(upload.body.succeed).toBe(true);
    await kill(first);
    const audio = (await readdir(join(dir, 'audio'))).find((name) => /^[0-9a-f]{64}$/.test(name)) as string;
    const audioFile = join(dir, 'audio', audio);
    const original = await readFile(audioFile);

    // One flipped byte in an audio file: same size, another hash.
    const flipped = Buffer.from(original);
    flipped[1000] = (flipped[1000] as number) ^ 0xff;
    await writeFile(audioFile, flipped);
    let failed = await failedStart(dir);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(audioFile);
    expect(failed.stderr).toMatch(/damaged/);

    // A missing audio file.
    await rm(audioFile);
    failed = await failedStart(dir);
    expect([failed.code, failed.stderr.includes(audioFile)]).toEqual([2, true]);
    await writeFile(audioFile, original);

    // Healthy again: it starts. Stopped with Ctrl-C, which folds the WAL into state.db.
    const healthy = await start(dir);
    healthy.child.kill('SIGINT');
    expect(await healthy.exited).toBe(0);

    // A newer layout version.
    const dbFile = join(dir, 'state.db');
    const db = Buffer.from(await readFile(dbFile));
    const bumped = Buffer.from(db);
    bumped.writeUInt32BE(99, 60); // user_version lives at offset 60 of the database header
    await writeFile(dbFile, bumped);
    failed = await failedStart(dir);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/newer voice-kit/);
    expect(failed.stderr).toContain(dbFile);

    // A truncated database.
    await writeFile(dbFile, db);
    await truncate(dbFile, 1000);
    failed = await failedStart(dir);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(dbFile);
    // Garbage in place of the database.
    await writeFile(dbFile, Buffer.alloc(8192, 7));
    failed = await failedStart(dir);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(dbFile);
  });

  it('takes "stateDir" from the config file, and --populate fills an empty dir only', async () => {
    const dir = await newDir();
    const configFile = join(dir, 'voice-kit.config.json');
    await writeFile(configFile, JSON.stringify({ stateDir: 'kept', freeCloneUses: 5 }));
    const ids = async (url: string) =>
      (
        (await tryCall(`${url}/v1/voice/list?page_size=20`, { headers: { 'X-API-Key': 'mock-key' } })).body
          .data.list as { voice_id: string }[]
      ).map((v) => v.voice_id);
    const first = await start(undefined, ['--config', configFile, '--populate', '4']);
    const before = await ids(first.url);
    expect(before).toHaveLength(4);
    await kill(first);
    expect((await readdir(join(dir, 'kept'))).sort()).toContain('state.db');
    const second = await start(undefined, ['--config', configFile, '--populate', '4']);
    expect(await ids(second.url)).toEqual(before);
    await kill(second);
    const bad = await failedStart(undefined, ['--populate', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--populate: expected an integer from 1 to 1000/);
  });
});
