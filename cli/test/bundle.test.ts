/**
 * The `voice-kit` bin is the CLI's code-split bundle (dist/bin/, scripts/build-cli.mjs): every command
 * starts from it, the paths its modules find relative to their own URL still hold from that one flat
 * folder (the state dir's worker, the dashboard, the committed fixtures, package.json), and the mock
 * command loads its own few chunks, not the conformance suite's or the proxy's (each file Node's
 * module loader reads is time before the mock is ready).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBin, root, runCli, spawnCli } from './run-cli.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const work = mkdtempSync(join(tmpdir(), 'voice-kit-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const headers = { 'X-API-Key': 'mock-key' };
const urlOf = (line: string) => /http:\/\/\S+?(?=[\s,)])/.exec(line)?.[0] as string;

describe('the voice-kit bin is the CLI bundle', () => {
  it('package.json "bin" names dist/bin/voice-kit.js: a small entry with the shebang, the rest in chunks', () => {
    expect(pkg.bin['voice-kit']).toBe('./dist/bin/voice-kit.js');
    expect(cliBin).toBe(join(root, 'dist', 'bin', 'voice-kit.js'));
    const entry = readFileSync(cliBin, 'utf8');
    expect(entry.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // The entry holds the Node version check and a dynamic import of the CLI, nothing more.
    expect(entry.length).toBeLessThan(8_000);
    expect(entry).toMatch(/import\("\.\/chunk-[\w-]+\.js"\)/);
    expect(existsSync(join(root, 'dist', 'bin', 'state-db-worker.js'))).toBe(true);
  });

  it('--version prints the version of package.json', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('mock --state-dir keeps its state through the worker beside the chunks, and serves the dashboard', async () => {
    const stateDir = join(work, 'state');
    const mock = spawnCli(['mock', '--port', '0', '--state-dir', stateDir]);
    try {
      const line = await mock.firstLine;
      expect(line).toContain(`state kept in ${stateDir}`);
      const url = urlOf(line);
      const list = await fetch(`${url}/v1/voice/list`, { headers });
      expect(list.status).toBe(200);
      expect((await list.json()).succeed).toBe(true);
      const page = await fetch(`${url}/__mock/`, { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<!doctype html>/i);
      const script = await fetch(`${url}/__mock/dashboard/dashboard.js`);
      expect(script.status).toBe(200);
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
    } finally {
      mock.child.kill('SIGINT');
    }
    expect(await mock.exited).toBe(0);
    expect(existsSync(join(stateDir, 'state.db'))).toBe(true);
  });

  it('conformance uploads the committed fixtures (MP3, FLAC named .wav) from the package', async () => {
    const { code, stdout, stderr } = await runCli(
      [
        'conformance',
        '--only',
        'upload.extension.mp3-accepted,voice-save.reference.flac-renamed',
        '--report-dir',
        join(work, 'reports'),
      ],
      { timeoutMs: 60_000 },
    );
    const output = `${stdout}${stderr}`;
    expect(code, output).toBe(0);
    // A fixture it cannot read skips its case: both must have run and passed.
    expect(output).toMatch(/Cases: 2; 2 pass, 0 fail, 0 error, 0 warn, 0 observed, 0 skipped/);
  }, 70_000);
});

/** Written at exit by the child: every file URL its module loader loaded. */
const recordLoads = `import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) loaded.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify(loaded) + '\\n'));`;

/**
 * Runs `voice-kit <args>` recording what it loads; `whileUp`, given, runs once it printed its first
 * line, and then the command is stopped with SIGINT. Answers the repository's files it loaded (paths
 * from the root) and the modules bundled in them: esbuild names each one in a comment line.
 */
async function loadedBy(args: readonly string[], whileUp?: (firstLine: string) => Promise<void>) {
  const cli = spawnCli(args, { preload: recordLoads });
  if (whileUp)
    try {
      await whileUp(await cli.firstLine);
    } finally {
      cli.child.kill('SIGINT');
    }
  const code = await cli.exited;
  const { stderr } = cli.output();
  expect(code, stderr).toBe(0);
  const urls = JSON.parse(/^loaded: (.*)$/m.exec(stderr)?.[1] ?? '[]') as string[];
  const files = urls
    .map((url) => relative(root, fileURLToPath(url)).replaceAll('\\', '/'))
    .filter((path) => !path.startsWith('node_modules/'));
  const modules = files.flatMap((path) =>
    [...readFileSync(join(root, path), 'utf8').matchAll(/^\/\/ dist\/(\S+)\.js$/gm)].map(
      (m) => m[1] as string,
    ),
  );
  return { files, modules };
}

describe('each command loads its own chunks', () => {
  it('voice-kit mock answers a list having loaded a few files of dist/bin/, none of the suite or the proxy', async () => {
    const { files, modules } = await loadedBy(['mock', '--port', '0'], async (line) => {
      const list = await fetch(`${urlOf(line)}/v1/voice/list`, { headers });
      expect(list.status).toBe(200);
      await list.arrayBuffer();
    });
    // Only the bundle: no file of tsc's dist/cli/, dist/mocks/, … (which would be ~115 files).
    expect(files.filter((path) => !path.startsWith('dist/bin/'))).toEqual([]);
    expect(files.length).toBeGreaterThan(1);
    expect(files.length).toBeLessThanOrEqual(40);
    expect(modules).toContain('mocks/node/server');
    expect(modules).toContain('cli/voice-kit');
    const foreign =
      /^(conformance\/(run|cases|explore|toolkit|reporters|setup)\/|proxy\/|oracle\/|cli\/(conformance|explore|proxy)$)/;
    expect(modules.filter((m) => foreign.test(m))).toEqual([]);
  });

  it('voice-kit conformance --list loads the suite, but neither the explorer nor the proxy', async () => {
    const { modules } = await loadedBy(['conformance', '--list']);
    expect(modules).toContain('cli/conformance');
    expect(modules.filter((m) => /^(conformance\/explore\/|proxy\/|cli\/(explore|proxy)$)/.test(m))).toEqual(
      [],
    );
  });
});
