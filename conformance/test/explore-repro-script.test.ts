/**
 * explore-repro.sh run by bash against a loopback deployment: a save under the run prefix and its
 * delete reach the deployment with the prefix the script chose substituted (outside the quotes) and the
 * id URL-encoded in the path, so the voice it created is really deleted.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlScript, type Reproduction, reproFormat, writeReproduction } from '../explore/reproduction.js';

const dir = mkdtempSync(join(tmpdir(), 'vk-repro-sh-'));
const voices = new Set<string>();
const seen: string[] = [];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const answer = (code: number, data: unknown) => {
        res.writeHead(code === 0 ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ code: code === 0 ? 200 : 404, error_code: code, succeed: code === 0, data }),
        );
      };
      if (req.method === 'POST' && req.url === '/v1/voice/save') {
        const id = (JSON.parse(body) as { voice_id: string }).voice_id;
        voices.add(id);
        return answer(0, { voice_id: id });
      }
      const del = /^\/v1\/voice\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'DELETE' && del?.[1]) {
        const id = decodeURIComponent(del[1]);
        return voices.delete(id) ? answer(0, null) : answer(40001, null);
      }
      return answer(0, { list: [...voices].map((voice_id) => ({ voice_id })), has_more: false });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const repro: Reproduction = {
  format: reproFormat,
  seed: 1,
  baseUrl: 'http://127.0.0.1:1',
  verdicts: [],
  acceptedTextLength: 0,
  steps: [
    {
      label: 'save a voice',
      op: 'saveVoice',
      key: 'main',
      json: { voice_id: '{run}gone a', ref_audio: 'https://example.invalid/a.wav' },
    },
    { label: 'delete it', op: 'deleteVoice', key: 'main', voice: '{run}gone a' },
  ],
};

const bash = (script: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      [script],
      { env: { PATH: process.env.PATH ?? '', BASE_URL: baseUrl, KEY_MAIN: 'k' }, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe('explore-repro.sh', () => {
  it('the delete step names the voice the save created: the prefix substituted, the id URL-encoded', () => {
    const line = curlScript(repro)
      .split('\n')
      .find((l) => l.includes('-X DELETE'));
    expect(line).toContain(`"$BASE_URL/v1/voice/""$RUN"'gone%20a'`);
    expect(line).not.toContain(`'"$RUN"'`);
  });

  it('run by bash against a loopback deployment, deletes the voice it saved', async () => {
    await writeReproduction(repro, dir);
    const { code, stderr } = await bash(join(dir, 'explore-repro.sh'));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const saved = seen.find((s) => s.startsWith('POST /v1/voice/save'));
    const deleted = seen.find((s) => s.startsWith('DELETE '));
    expect(saved).toBeDefined();
    expect(deleted).toMatch(/^DELETE \/v1\/voice\/vk_\d{6}_gone%20a$/);
    expect(voices.size).toBe(0);
  });

  it('a link planted at the recordings’ folder is refused: nothing is written through it', async () => {
    const planted = join(dir, 'planted');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(planted);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(planted, 'explore-repro-files'));
    await expect(writeReproduction(repro, planted)).rejects.toThrow(/explore-repro-files is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
