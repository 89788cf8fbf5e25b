/**
 * A key the deployment refuses (401/10003) stops `voice-kit conformance` before its first case, with
 * one line naming the flag, instead of a run of a hundred cases half of which "fail".
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mocks/node/server.js';
import { conformanceCli } from '../voice-kit.js';
import { runCli } from './run-cli.js';

let mock: Awaited<ReturnType<typeof startMockServer>>;
let dir: string;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'voice-kit-refused-key-'));
});
afterAll(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const good = {
  '--key-no-clone': 'mock-key-no-clone',
  '--key-other-project': 'mock-key-other-project',
  '--key-other-env': 'mock-key-other-env',
  '--key-other-org': 'mock-key-other-org',
};

describe('a refused key stops the run at once (exit 2, one line naming the flag)', () => {
  it('--api-key wrong-key, spawned as a user runs it', async () => {
    const { code, stderr } = await runCli(['conformance', '--base-url', mock.url, '--api-key', 'wrong-key'], {
      env: { VOICE_KIT_REPORT_DIR: dir },
    });
    expect(stderr.split('\n')[0]).toBe(
      `error: --api-key is refused by ${mock.url}: 401/10003 to GET /v1/voice/list; check that the key is current (not rotated or revoked) and belongs to this deployment's environment`,
    );
    expect(stderr).not.toMatch(/pass|fail|\n\s+at /i);
    expect(code).toBe(2);
  });

  it.each(Object.keys(good))('%s wrong-key', async (flag) => {
    const lines: string[] = [];
    const keys = Object.entries({ ...good, [flag]: 'wrong-key' }).flat();
    const code = await conformanceCli(
      ['--base-url', mock.url, '--api-key', 'mock-key', ...keys, '--report-dir', dir],
      {},
      (l) => lines.push(l),
    );
    expect(lines[0]).toMatch(new RegExp(`^error: ${flag} is refused by http://\\S+: 401/10003 `));
    expect(lines.join('\n')).not.toMatch(/\bcases?\b.*\bpass/);
    expect(code).toBe(2);
  });

  it('names the variable when the key came from one', async () => {
    const lines: string[] = [];
    const code = await conformanceCli(
      ['--base-url', mock.url, '--report-dir', dir],
      { VOICE_KIT_API_KEY: 'mock-key', VOICE_KIT_KEY_OTHER_ORG: 'rotated' },
      (l) => lines.push(l),
    );
    expect(lines[0]).toMatch(/^error: VOICE_KIT_KEY_OTHER_ORG is refused by /);
    expect(code).toBe(2);
  });
});
