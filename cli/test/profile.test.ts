import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../voice-kit.js';
import { spawnCli } from './run-cli.js';

/** A staging that chose differently: newest first, PCM headers of its own, 422 for an unknown cursor. */
const staging = {
  kind: 'voice-kit-profile',
  version: 1,
  observed: { by: 'conformance', target: 'https://staging.example' },
  points: {
    'list-order': { question: 'list-order', choice: { order: 'newest-first' } },
    'pcm-header-names': {
      question: 'pcm-header-names',
      choice: { sampleRate: 'X-Sample-Rate', channels: 'X-Channels', bitDepth: 'X-Bits' },
    },
    'list-errors/unknown-cursor': { question: 'list-errors', choice: { status: 422, error_code: 10004 } },
    'general-errors/unknown-path': { question: 'general-errors', choice: { status: 400, error_code: 10001 } },
  },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'voice-kit-profile-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `voice-kit mock <args>` in this process, for a refusal before the server starts: exit code and stderr. */
async function refused(args: string[]): Promise<{ code: number; stderr: string[] }> {
  const stderr: string[] = [];
  const code = await main(
    ['mock', '--port', '0', ...args],
    () => {},
    (line) => stderr.push(line),
    {},
  );
  return { code, stderr };
}

describe('voice-kit mock --profile refuses a bad profile with one line and exit 2', () => {
  it.each([
    ['not JSON', '{"kind": "voice-kit-profile",', /bad\.json: not JSON: .*(position|line)/],
    [
      'an unknown point',
      JSON.stringify({ ...staging, points: { 'list-ordr': { question: 'list-order', choice: {} } } }),
      /bad\.json: points\["list-ordr"\]: unknown point \(did you mean "list-order"\?\)$/,
    ],
    [
      'a bad choice',
      JSON.stringify({
        ...staging,
        points: { 'list-order': { question: 'list-order', choice: { order: 'random' } } },
      }),
      /bad\.json: points\["list-order"\]\.choice\.order: "random" is not one of oldest-first, newest-first$/,
    ],
    [
      'a wrong kind',
      JSON.stringify({ ...staging, kind: 'har' }),
      /bad\.json: kind: expected "voice-kit-profile", got "har"$/,
    ],
    [
      'a wrong version',
      JSON.stringify({ ...staging, version: 2 }),
      /bad\.json: version: 2 is not a version this kit reads \(1\)$/,
    ],
  ])('%s', async (_what, text, message) => {
    const file = join(dir, 'bad.json');
    await writeFile(file, text);
    const { code, stderr } = await refused(['--profile', file]);
    expect(code).toBe(2);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^voice-kit mock: /);
    expect(stderr[0]).toMatch(message);
    expect(stderr[0]).not.toMatch(/\n| {4}at /);
  });

  it('a file that is not there', async () => {
    const { code, stderr } = await refused(['--profile', join(dir, 'missing.json')]);
    expect([code, stderr.length]).toEqual([2, 1]);
    expect(stderr[0]).toMatch(/missing\.json: cannot read the file/);
  });

  it('a bad "profile" of a config file, naming the config file and the field', async () => {
    const config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ profile: { ...staging, version: 3 } }));
    const { code, stderr } = await refused(['--config', config]);
    expect([code, stderr.length]).toEqual([2, 1]);
    expect(stderr[0]).toMatch(/config\.json: profile\.version: 3 is not a version this kit reads \(1\)$/);
  });
});

/** Spawns `voice-kit mock` (the bin, as npm start runs it). */
function start(args: string[]) {
  const run = spawnCli(['mock', '--port', '0', ...args], { env: { VOICE_KIT_PORT: '' } });
  return { child: run.child, line: run.firstLine, exited: run.exited };
}

describe('voice-kit mock with a profile answers as the profile says (Node server)', () => {
  it.each([
    ['--profile', async () => ['--profile', await written('staging.json', staging)]],
    [
      'a config file naming it, relative to the config file',
      async () => {
        await written('sub/staging.json', staging);
        return ['--config', await written('sub/config.json', { profile: 'staging.json', uploadsPerHour: 5 })];
      },
    ],
    [
      'a config file holding it inline',
      async () => ['--config', await written('inline.json', { profile: staging })],
    ],
  ])('%s', async (_how, args) => {
    const run = start(await args());
    try {
      const line = await run.line;
      expect(line).toMatch(
        /; profile \S*(staging\.json|inline\.json \(inline\)): 4 points \(list-order, list-errors\/unknown-cursor, pcm-header-names, general-errors\/unknown-path\); the rest are the mock's own choices\)$/,
      );
      const url = /http:\/\/[\d.:]+/.exec(line)?.[0];
      const get = (path: string, init: RequestInit = {}) =>
        fetch(`${url}${path}`, { ...init, headers: { 'X-API-Key': 'mock-key', ...init.headers } });
      const cursor = await get('/v1/voice/list?voice_id=nobody');
      expect([cursor.status, (await cursor.json()).error_code]).toEqual([422, 10004]);
      const nowhere = await get('/v1/nowhere');
      expect(nowhere.status).toBe(400);
      await nowhere.arrayBuffer();
      const pcm = await get('/v1/text-to-speech', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: 'hi', audio_format: 'pcm' }),
      });
      await pcm.arrayBuffer();
      expect([pcm.status, pcm.headers.get('x-sample-rate'), pcm.headers.get('x-audio-sample-rate')]).toEqual([
        200,
        '24000',
        null,
      ]);
      const state = await (await get('/__mock/state?voices=none')).json();
      expect(state.data.profile.points.map((p: { point: string }) => p.point)).toHaveLength(4);
      // Unchanged where the profile says nothing.
      const size = await get('/v1/voice/list?page_size=99');
      expect([size.status, (await size.json()).error_code]).toEqual([400, 10001]);
    } finally {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    }
  });
});

async function written(name: string, value: unknown): Promise<string> {
  const file = join(dir, name);
  await import('node:fs/promises').then((fs) => fs.mkdir(join(file, '..'), { recursive: true }));
  await writeFile(file, JSON.stringify(value));
  return file;
}
