/**
 * What the proxy writes and where it sends things: an absolute-form target reaches the upstream as a
 * path with the upstream's Host; the HAR and its side files are private (0600) and a link planted at
 * any of their names is never followed; a report folder or HAR path that cannot be used is refused when
 * the proxy starts, not lost when it stops.
 */
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxySetupError, startProxy } from '../index.js';
import { envelope, sendJson, type Upstream, upstream, wav } from './upstreams.js';

let up: Upstream;
const seen: { url: string; host: string }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'vk-proxy-private-'));

beforeAll(async () => {
  up = await upstream((req, _body, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    if (req.url?.startsWith('/v1/text-to-speech')) {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      return res.end(wav(2400));
    }
    sendJson(res, 200, envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }));
  });
});
afterAll(async () => {
  await up.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `text` raw to `port` and resolves with the status line of the answer. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (c) => {
      got += c.toString('latin1');
      if (got.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(got.split('\r\n')[0] ?? ''));
    setTimeout(() => socket.destroy(), 3000);
  });
}

describe('the request target', () => {
  it('an absolute-form target reaches the upstream as its path and query, with the upstream’s Host', async () => {
    const proxy = await startProxy({ upstream: up.url, port: 0 });
    try {
      const line = await raw(
        proxy.port,
        'GET http://metadata.invalid/v1/voice/list?page_size=2 HTTP/1.1\r\nHost: metadata.invalid\r\nX-API-Key: k\r\n\r\n',
      );
      expect(line).toBe('HTTP/1.1 200 OK');
      expect(seen.at(-1)).toEqual({ url: '/v1/voice/list?page_size=2', host: new URL(up.url).host });
      expect(proxy.report().exchanges.at(-1)).toMatchObject({
        path: '/v1/voice/list?page_size=2',
        operationId: 'listVoices',
      });
      const before = seen.length;
      expect(await raw(proxy.port, 'GET http://[/x HTTP/1.1\r\nHost: a\r\n\r\n')).toBe(
        'HTTP/1.1 400 Bad Request',
      );
      expect(seen.length).toBe(before);
    } finally {
      await proxy.close();
    }
  });
});

/** A HAR session of one synthesis (a side file) and one list (inline) into `file`. */
async function harSession(file: string) {
  const proxy = await startProxy({ upstream: up.url, port: 0, har: file });
  await (await fetch(`${proxy.url}/v1/voice/list`, { headers: { 'x-api-key': 'secret-key' } })).arrayBuffer();
  const body = JSON.stringify({ generate_text: 'Hi there.', audio_format: 'wav' });
  await (
    await fetch(`${proxy.url}/v1/text-to-speech`, {
      method: 'POST',
      headers: { 'x-api-key': 'secret-key', 'content-type': 'application/json' },
      body,
    })
  ).arrayBuffer();
  return proxy.close();
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the HAR', () => {
  it('is written 0600, its side files too, and leaves no temporary file', async () => {
    const file = join(dir, 'plain', 'session.har');
    await harSession(file);
    // The HAR keeps the exchanges, never the key itself (at most 4 of its characters).
    const har = readFileSync(file, 'utf8');
    expect(har).toContain('"name":"x-api-key","value":"s…y"');
    expect(har).not.toContain('secret-key');
    expect(mode(file)).toBe(0o600);
    const bodies = readdirSync(`${file}.bodies`);
    expect(bodies).toEqual(['2-response.wav']);
    expect(mode(join(`${file}.bodies`, '2-response.wav'))).toBe(0o600);
    expect(readdirSync(join(dir, 'plain')).sort()).toEqual(['session.har', 'session.har.bodies']);
  });

  it('a second session over the same path replaces it and its side files, through no link planted among them', async () => {
    const file = join(dir, 'again', 'session.har');
    await harSession(file);
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const side = join(`${file}.bodies`, '2-response.wav');
    rmSync(side);
    symlinkSync(victim, side);
    await harSession(file);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(side).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8')).log.entries).toHaveLength(2);
  });

  it('a symlink at the HAR path or its bodies folder is refused at start, in one line, and nothing is written through it', async () => {
    const victim = join(dir, 'victim2.txt');
    writeFileSync(victim, 'keep me too');
    const file = join(dir, 'linked.har');
    symlinkSync(victim, file);
    await expect(startProxy({ upstream: up.url, port: 0, har: file })).rejects.toThrow(
      new ProxySetupError(`the HAR file ${file} is a symbolic link: the proxy does not write through one`),
    );
    const other = join(dir, 'bodies-linked.har');
    symlinkSync(dir, `${other}.bodies`);
    await expect(startProxy({ upstream: up.url, port: 0, har: other })).rejects.toThrow(
      /bodies folder .* is a symbolic link/,
    );
    expect(readFileSync(victim, 'utf8')).toBe('keep me too');
    expect(readdirSync(dir).filter((n) => n.includes('.tmp'))).toEqual([]);
  });
});

describe('the folders the proxy writes into are checked at start', () => {
  it('a report folder that is a file, under a file, or under /proc is a ProxySetupError before it listens', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const reportDir of [file, join(file, 'sub'), '/proc/nope'])
      await expect(startProxy({ upstream: up.url, port: 0, reportDir })).rejects.toThrow(ProxySetupError);
    await expect(startProxy({ upstream: up.url, port: 0, reportDir: '/proc/nope' })).rejects.toThrow(
      'the report folder /proc/nope cannot be written: ENOENT',
    );
  });

  it('a HAR whose folder cannot be made is one too', async () => {
    await expect(startProxy({ upstream: up.url, port: 0, har: '/proc/nope/session.har' })).rejects.toThrow(
      'the HAR folder /proc/nope cannot be written: ENOENT',
    );
  });
});
