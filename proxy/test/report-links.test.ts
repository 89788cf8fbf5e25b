/**
 * Every file the proxy writes when it stops (proxy.json, proxy.junit.xml, proxy.md, the HAR, the
 * profile) goes through a temporary file and a rename: a symbolic link planted at one of their names
 * while the session runs is refused, naming the file, and its target is left as it was.
 */
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportWriteError, startProxy } from '../index.js';
import { envelope, sendJson, type Upstream, upstream } from './upstreams.js';

let up: Upstream;
const dir = mkdtempSync(join(tmpdir(), 'vk-proxy-links-'));

beforeAll(async () => {
  up = await upstream((_req, _body, res) =>
    sendJson(res, 200, envelope(200, 0, { list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 })),
  );
});
afterAll(async () => {
  await up.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a link planted at a report name while the proxy runs', () => {
  it.each(['proxy.json', 'proxy.junit.xml', 'proxy.md', 'session.har', 'profile.json'])(
    '%s: refused, named in the error, its target untouched',
    async (name) => {
      const reportDir = join(dir, name.replace(/\W/g, '-'));
      const har = join(reportDir, 'session.har');
      const writeProfile = join(reportDir, 'profile.json');
      const proxy = await startProxy({ upstream: up.url, port: 0, reportDir, har, writeProfile });
      await (await fetch(`${proxy.url}/v1/voice/list`, { headers: { 'x-api-key': 'k' } })).arrayBuffer();
      const victim = join(dir, `victim-${name}`);
      writeFileSync(victim, 'keep me');
      symlinkSync(victim, join(reportDir, name));
      const error = await proxy.close().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ReportWriteError);
      expect((error as Error).message).toContain(`${name} is a symbolic link`);
      expect(readFileSync(victim, 'utf8')).toBe('keep me');
      expect(lstatSync(join(reportDir, name)).isSymbolicLink()).toBe(true);
      expect(readdirSync(reportDir).filter((n) => n.includes('.tmp'))).toEqual([]);
    },
  );
});
