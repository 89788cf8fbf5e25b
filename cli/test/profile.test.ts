import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceSetupError, runConformance } from '../../conformance/index.js';
import { startProxy } from '../../proxy/index.js';
import { main } from '../voice-kit.js';
import { cliBin, root, spawnCli } from './run-cli.js';

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

describe('voice-kit mock reads a profile or config within bounds', () => {
  it.each([
    [
      '--profile',
      /^voice-kit mock: \/dev\/zero: more than 16777216 bytes; a profile file holds at most 16777216$/,
    ],
    ['--config', /^error: \/dev\/zero: more than 16777216 bytes; a config file holds at most that$/],
  ])('%s /dev/zero: refused after the cap is read, one line, exit 2', async (flag, message) => {
    const { code, stderr } = await refused([flag, '/dev/zero']);
    expect(code).toBe(2);
    expect(stderr[0]).toMatch(message);
  });

  it.each([
    ['--profile', /^voice-kit mock: .*: nested deeper than 48 levels$/],
    ['--config', /^error: .*: nested deeper than 64 levels$/],
  ])('%s nested 10,000 deep: one line, exit 2, no stack', async (flag, message) => {
    const file = join(dir, 'deep.json');
    await writeFile(file, `{"points":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    const { code, stderr } = await refused([flag, file]);
    expect(code).toBe(2);
    expect(stderr[0]).toMatch(message);
  });

  it('voice-kit proxy --keys /dev/zero: refused once past the cap, one line, exit 2', async () => {
    const lines: string[] = [];
    const code = await main(
      ['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0', '--keys', '/dev/zero'],
      (l) => lines.push(l),
      (l) => lines.push(l),
      {},
    );
    expect(code).toBe(2);
    expect(lines[0]).toBe('error: --keys: /dev/zero holds more than 4194304 bytes');
  });

  it('a profile through a pipe larger than the cap (50 MB) is refused, not read to the end', async () => {
    // A shell's pipe, as `--profile <(…)` or `… | voice-kit mock --profile /dev/stdin` makes one.
    const child = spawn(
      'sh',
      [
        '-c',
        `head -c 50000000 /dev/zero | "${process.execPath}" "${cliBin}" mock --port 0 --profile /dev/stdin`,
      ],
      { cwd: root, env: { ...process.env, VOICE_KIT_PORT: '' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'voice-kit mock: /dev/stdin: more than 16777216 bytes; a profile file holds at most 16777216',
    ]);
  });
});

describe('PCM header names that HTTP gives a meaning are refused at every entry, one line, exit 2', () => {
  const pcmProfile = (channels: string) => ({
    ...staging,
    points: {
      'pcm-header-names': {
        question: 'pcm-header-names',
        choice: { sampleRate: 'X-Sample-Rate', channels, bitDepth: 'X-Bits' },
      },
    },
  });

  it.each(['Content-Length', 'Transfer-Encoding', 'Set-Cookie', 'Access-Control-Allow-Origin', 'Keep-Alive'])(
    '%s: in a profile, in --config pcmHeaders, in the suite’s and the proxy’s --pcm-headers',
    async (name) => {
      const profile = await written('pcm-profile.json', pcmProfile(name));
      const viaProfile = await refused(['--profile', profile]);
      expect([viaProfile.code, viaProfile.stderr.length]).toEqual([2, 1]);
      expect(viaProfile.stderr[0]).toMatch(
        new RegExp(`^voice-kit mock: .*choice\\.channels: "${name}" .*a PCM header needs a name of its own`),
      );

      const config = await written('pcm-config.json', { pcmHeaders: { channels: name } });
      const viaConfig = await refused(['--config', config]);
      expect(viaConfig.code).toBe(2);
      expect(viaConfig.stderr[0]).toMatch(
        new RegExp(
          `^error: config\\.pcmHeaders\\.channels: "${name}" .*a PCM header needs a name of its own`,
        ),
      );

      for (const command of [
        ['conformance', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k'],
        ['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0'],
      ]) {
        const lines: string[] = [];
        const code = await main(
          [...command, '--pcm-headers', `X-Rate,${name},X-Bits`],
          (l) => lines.push(l),
          (l) => lines.push(l),
          {},
        );
        expect(code).toBe(2);
        expect(lines[0]).toMatch(
          new RegExp(`^error: --pcm-headers: "${name}" .*a PCM header needs a name of its own`),
        );
      }

      // The library entries: startProxy and runConformance refuse the same names.
      const pcmHeaders = { sampleRate: 'X-Rate', channels: name, bitDepth: 'X-Bits' };
      await expect(startProxy({ upstream: 'http://127.0.0.1:9', port: 0, pcmHeaders })).rejects.toThrow(
        new RegExp(`^pcmHeaders\\.channels: "${name}" .*a PCM header needs a name of its own`),
      );
      await expect(
        runConformance({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', pcmHeaders }),
      ).rejects.toBeInstanceOf(ConformanceSetupError);
    },
  );
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
