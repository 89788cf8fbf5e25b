// The README's curl walk, run as written (bash and curl) against a mock on a free loopback port, so the
// quick start a newcomer copies cannot drift from what the mock answers.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = await readFile(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Try the whole flow with curl'));
const walk = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const shown = /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const haveCurl = await run('curl', ['--version']).then(
  () => true,
  () => false,
);

describe.skipIf(!haveCurl)("the README's curl walk", () => {
  let server: MockServer;
  let dir: string;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'voice-kit-readme-'));
    await symlink(join(root, 'fixtures'), join(dir, 'fixtures'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the mock of npm start, which the test swaps for its own', () => {
    expect(walk.match(/http:\/\/127\.0\.0\.1:4010\//g)?.length).toBe(6);
  });

  it('runs from upload to delete, and shows what it prints', async () => {
    const script = walk.replaceAll('http://127.0.0.1:4010', server.url);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir });
    const lines = stdout.replaceAll(server.url, 'http://127.0.0.1:4010').split('\n');
    // Every line the README shows (… marks a part it leaves out) is a line of the output, in order.
    let at = 0;
    for (const line of shown.trimEnd().split('\n')) {
      if (line === '…') continue;
      const pattern = new RegExp(
        `^${line
          .split('…')
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
      const found = lines.findIndex((l, i) => i >= at && pattern.test(l.trimEnd()));
      expect(found, `README line not printed in order: ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    const [complete, streamed] = await Promise.all(
      ['hello.wav', 'stream.wav'].map((f) => readFile(join(dir, f))),
    );
    expect(streamed).toEqual(complete);
  });
});
