/**
 * The CLI's checks that need files or the network: the reference recording is judged by the kit's
 * analyser before the run, and a --base-url that gives no HTTP answer ends the run before any case.
 * Both exit 2 naming the flag, instead of a must FAIL that blames the deployment.
 */
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceCli } from '../../cli/voice-kit.js';
import { loadFixture } from '../../fixtures/index.js';
import { type RunOptions, runConformance } from '../index.js';
import { preflight } from '../setup/preflight.js';
import { ConformanceSetupError } from '../setup/setup-error.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-cli-setup-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: readonly string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await conformanceCli([...argv, '--report-dir', dir], {}, (l) => lines.push(l));
  return { code, text: lines.join('\n') };
}

/** A kit fixture written under a name of our choice. */
async function fixtureFile(id: string, name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, await loadFixture(id));
  return path;
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('--reference-audio is checked before the run', () => {
  it.each([
    ['too-long-60.5s', 'voice.wav', /voice\.wav: 60\.5 s long; a reference must be 3–60 s \(§4\.2\)/],
    ['too-short-2.9s', 'voice.wav', /voice\.wav: 2\.9 s long; a reference must be 3–60 s \(§4\.2\)/],
    ['silence-10s', 'voice.wav', /voice\.wav: not usable speech: holds 0\.00 s of speech/],
    ['long-pause-8s', 'voice.wav', /voice\.wav: contains a pause of .* s; at most 5 s is allowed/],
    ['corrupt-wav', 'voice.wav', /voice\.wav: an unreadable WAV file/],
    ['flac-named-wav', 'voice.wav', /voice\.wav: a FLAC file .*error_code 20012/],
    [
      'valid-10s',
      'voice.flac',
      /voice\.flac: the extension \.flac is refused by upload, which accepts \.wav, \.mp3/,
    ],
    ['valid-10s', 'voice', /voice: a name without an extension is refused by upload/],
  ])('%s as %s → exit 2', async (id, name, message) => {
    const path = await fixtureFile(id, name);
    const { code, text } = await cli(['--reference-audio', path]);
    expect(code).toBe(2);
    expect(text).toContain(`--reference-audio ${path}`);
    expect(text).toMatch(message);
    expect(text).not.toMatch(/cases against/);
  });

  it('a missing file, a folder, and a file over 20 MiB (judged by its size, unread) → exit 2', async () => {
    const missing = join(dir, 'nope.wav');
    expect(await cli(['--reference-audio', missing])).toMatchObject({
      code: 2,
      text: expect.stringContaining(`--reference-audio ${missing}: cannot read it (ENOENT)`),
    });
    const folder = join(dir, 'folder.wav');
    await mkdir(folder);
    expect((await cli(['--reference-audio', folder])).text).toMatch(/folder\.wav: not a file/);
    const big = join(dir, 'big.wav');
    await writeFile(big, '');
    await truncate(big, 20 * 1024 * 1024 + 1);
    expect((await cli(['--reference-audio', big])).text).toMatch(
      /big\.wav: 20971521 bytes; a reference may hold at most 20971520/,
    );
  });

  it('a recording the kit accepts runs the cases with it', async () => {
    const path = await fixtureFile('speech-mp3', 'speech.mp3');
    const { code, text } = await cli(['--reference-audio', path, '--only', 'upload.accepts.wav']);
    expect(text).toMatch(/1 cases against/);
    expect(code).toBe(0);
  });
});

describe('--base-url must answer before any case', () => {
  it('a refused connection → exit 2 naming ECONNREFUSED, not a run of "fetch failed"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, text } = await cli(['--base-url', url, '--api-key', 'k']);
    expect(code).toBe(2);
    expect(text).toMatch(
      new RegExp(`--base-url ${url}: no HTTP answer to GET /v1/voice/list: .*ECONNREFUSED`),
    );
    expect(text).not.toMatch(/cases against|fetch failed/);
  });

  it('no answer within the timeout → a timeout, named', async () => {
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const error = await preflight((r) => fetch(r), `http://127.0.0.1:${port}`, 'k', {
        timeoutMs: 200,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConformanceSetupError);
      expect((error as Error).message).toMatch(/no answer within 0\.2 s \(timeout\)/);
    } finally {
      silent.close();
    }
  });

  it('any HTTP answer proceeds: the cases judge a deployment that answers 404 to everything (exit 1)', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const { code, text } = await cli([
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--api-key',
        'k',
        '--only',
        'envelope.success.list',
      ]);
      expect(text).toMatch(/1 cases against/);
      expect(code).toBe(1);
    } finally {
      server.close();
    }
  });

  it('the library throws the same ConformanceSetupError', async () => {
    const options: RunOptions = { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'k' };
    await expect(runConformance(options)).rejects.toMatchObject({
      name: 'ConformanceSetupError',
      option: 'baseUrl',
    });
  });
});
