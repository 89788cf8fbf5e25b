#!/usr/bin/env node
/**
 * The consumer trial: what a user of the published package meets. Packs the kit (`npm pack`), then for
 * each Node of the trial (default 24 and 26, the latest of each from the registry's node-linux-<arch>
 * packages) makes a fresh project in a temporary directory, installs the tarball there with the latest
 * msw, vitest, TypeScript and @types/node, and checks that:
 *   - `npm install` needs no --legacy-peer-deps and prints no warning (no peer conflict, no engine);
 *   - `tsc --noEmit` passes with strict, module/moduleResolution node16 and skipLibCheck off, on a file
 *     that imports every entry of the exports map and on every declaration file the kit ships;
 *   - a tiny client suite passes under vitest through voice-kit/msw (setupServer from msw/node) and
 *     in process (createMockService().fetch), printing no warning;
 *   - what only the package's files make work (a file left out of "files" breaks it): the mock
 *     with a state dir (its SQLite worker) kept across a restart, the dashboard page and its
 *     assets, `startProxy` in front of the mock, and the `voice-kit` bin (`mock --state-dir`,
 *     `proxy --help`), in about a second.
 * npm, tsc and vitest all run on the Node of the trial. Not part of `npm test`: it installs from the
 * registry. Usage: node scripts/consumer-trial.mjs [--node 24,26] [--keep]
 * (--keep leaves the projects in place and prints where). Exits 1 if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './ensure-built.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { node: { type: 'string', default: '24,26' }, keep: { type: 'boolean', default: false } },
});
const majors = values.node.split(',').map((m) => m.trim());
const arch = { x64: 'x64', arm64: 'arm64' }[process.arch] ?? process.arch;

/**
 * npm's complaints about its own configuration (e.g. an option in ~/.npmrc that this npm no longer
 * knows) come from the machine, not from the kit: shown, but not counted.
 */
const machineNoise = /^npm warn Unknown (user|global|project|env|builtin) config /;
const warningLine = /warn|deprecat|experimental/i;

/** The environment of a child that must not see this repository: no npm_* of an outer npm run. */
function cleanEnv(nodeBin) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) || k === 'INIT_CWD' || k === 'NODE') continue;
    env[k] = v;
  }
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.startsWith(join(root, 'node_modules')));
  env.PATH = [nodeBin, ...path].join(delimiter);
  return env;
}

function run(label, command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const lines = output.split('\n');
  const warnings = lines.filter((l) => warningLine.test(l) && !machineNoise.test(l));
  const noise = lines.filter((l) => machineNoise.test(l));
  const ok = result.status === 0 && warnings.length === 0;
  return { label, ok, status: result.status, output, warnings, noise: [...new Set(noise)] };
}

const work = mkdtempSync(join(tmpdir(), 'voice-kit-consumer-'));
const failures = [];
const report = (step) => {
  const mark = step.ok ? 'ok  ' : 'FAIL';
  process.stdout.write(`  ${mark} ${step.label}\n`);
  for (const w of step.warnings) process.stdout.write(`         warning: ${w.trim()}\n`);
  for (const n of step.noise)
    process.stdout.write(`         (machine's npm config, not counted: ${n.trim()})\n`);
  if (!step.ok) {
    failures.push(step.label);
    if (step.status !== 0) process.stdout.write(`${step.output.trim().replace(/^/gm, '         | ')}\n`);
  }
  return step.ok;
};

try {
  await ensureBuilt();
  const packed = run(
    'npm pack',
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', work],
    {
      cwd: root,
      env: cleanEnv(dirname(process.execPath)),
    },
  );
  const tarball = join(work, packed.output.trim().split('\n').at(-1) ?? '');
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  process.stdout.write(`voice-kit consumer trial: ${tarball}\n`);

  for (const major of majors) {
    const nodeDir = join(work, `node-${major}`);
    mkdirSync(nodeDir);
    const fetched = run(
      `node-linux-${arch}@${major}`,
      'npm',
      ['pack', '--silent', `node-linux-${arch}@${major}`],
      {
        cwd: nodeDir,
        env: cleanEnv(dirname(process.execPath)),
      },
    );
    if (fetched.status !== 0) {
      report(fetched);
      continue;
    }
    const archive = readdirSync(nodeDir).find((f) => f.endsWith('.tgz'));
    spawnSync('tar', ['-xzf', archive, '-C', nodeDir], { cwd: nodeDir });
    const nodeBin = join(nodeDir, 'package', 'bin');
    const env = cleanEnv(nodeBin);
    const version = spawnSync(join(nodeBin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    const project = join(work, `consumer-node-${major}`);
    writeProject(project);
    process.stdout.write(
      `Node ${version} (npm ${spawnSync('npm', ['--version'], { env, encoding: 'utf8' }).stdout.trim()}), ${project}\n`,
    );

    const installed = report(
      run(
        'npm install voice-kit (the tarball) msw vitest typescript @types/node (latest of each)',
        'npm',
        [
          'install',
          '--save-dev',
          tarball,
          'msw@latest',
          'vitest@latest',
          'typescript@latest',
          '@types/node@latest',
        ],
        { cwd: project, env },
      ),
    );
    if (!installed) continue;
    const versions = spawnSync('npm', ['ls', '--depth=0'], { cwd: project, env, encoding: 'utf8' }).stdout;
    process.stdout.write(
      `${versions
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => `         ${l}`)
        .join('\n')}\n`,
    );
    report(
      run(
        'tsc --noEmit (strict, node16, skipLibCheck off)',
        join(project, 'node_modules', '.bin', 'tsc'),
        ['--noEmit', '-p', project],
        { cwd: project, env },
      ),
    );
    report(
      run(
        'vitest run (voice-kit/msw under msw/node; createMockService().fetch; state dir, dashboard, proxy, bin)',
        join(project, 'node_modules', '.bin', 'vitest'),
        ['run'],
        { cwd: project, env },
      ),
    );
  }
} finally {
  if (values.keep) process.stdout.write(`kept: ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  process.stdout.write(`consumer trial FAILED: ${failures.join('; ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write('consumer trial passed\n');
}

/** A consumer project as a user would set one up: ES modules, strict TypeScript, vitest. */
function writeProject(dir) {
  mkdirSync(join(dir, 'test'), { recursive: true });
  const json = (name, value) => writeFileSync(join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
  json('package.json', { name: 'voice-kit-consumer', private: true, type: 'module' });
  json('tsconfig.json', {
    // Nothing else: TypeScript's defaults for the rest (no "types", so no @types package is in unless
    // something imports or references it).
    compilerOptions: {
      strict: true,
      module: 'node16',
      moduleResolution: 'node16',
      skipLibCheck: false,
      noEmit: true,
    },
    // The client code, and every declaration file the package ships: those the exports map reaches and
    // the internal ones too, each checked as a consumer's compiler sees it.
    include: ['test', 'node_modules/voice-kit/dist/**/*.d.ts'],
  });
  // Every entry of the exports map, so tsc reads every declaration file the kit ships.
  writeFileSync(
    join(dir, 'test', 'entries.ts'),
    `import type { MockService } from 'voice-kit';
import { type ConformanceCase, runConformance } from 'voice-kit/conformance';
import { errors, limits } from 'voice-kit/contract';
import { fixtureManifest } from 'voice-kit/fixtures';
import { createHandlers, type HandlerOptions } from 'voice-kit/msw';
import { type MockServer, type ProxyReport, type ProxyServer, startMockServer, startProxy } from 'voice-kit/node';
import type { components, paths } from 'voice-kit/types';

export type Used = [MockService, ConformanceCase, HandlerOptions, MockServer, ProxyServer, ProxyReport, components, paths];
export const used = [runConformance, errors, limits, fixtureManifest, createHandlers, startMockServer, startProxy];
`,
  );
  writeFileSync(
    join(dir, 'test', 'client.test.ts'),
    `import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockService, type MockService } from 'voice-kit';
import { errors } from 'voice-kit/contract';
import { createHandlers } from 'voice-kit/msw';
import type { components } from 'voice-kit/types';

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
const baseUrl = 'https://voice.example.test';
const key = { 'X-API-Key': 'mock-key' };

/** A tiny client of the voice service, as an app would write it. */
function client(fetcher: Fetch) {
  return {
    async listVoices(apiKey = key) {
      const res = await fetcher(\`\${baseUrl}/v1/voice/list\`, { headers: apiKey });
      return { status: res.status, body: (await res.json()) as components['schemas']['ErrorEnvelope'] & { data: unknown } };
    },
    async speak(text: string) {
      const res = await fetcher(\`\${baseUrl}/v1/text-to-speech\`, {
        method: 'POST',
        headers: { ...key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: text }),
      });
      return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}

function suite(fetcher: Fetch, service: MockService) {
  const api = client(fetcher);
  beforeEach(() => service.reset());

  it('lists no custom voices on a fresh account', async () => {
    const { status, body } = await api.listVoices();
    expect(status).toBe(200);
    expect(body.succeed).toBe(true);
  });

  it('speaks a WAV', async () => {
    const { status, type, bytes } = await api.speak('Hello there!');
    expect([status, type]).toEqual([200, 'audio/wav']);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
  });

  it('refuses a request without a key with the documented envelope', async () => {
    const { status, body } = await api.listVoices({} as typeof key);
    expect([status, body.error_code]).toEqual([errors.missingApiKey.status, errors.missingApiKey.code]);
  });
}

describe('through voice-kit/msw under msw/node', () => {
  const service = createMockService();
  const server = setupServer(...createHandlers({ baseUrl, service }));
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  suite((url, init) => fetch(url, init), service);
});

describe('in process: createMockService().fetch', () => {
  const service = createMockService();
  suite((url, init) => service.fetch(new Request(url, init)), service);
});
`,
  );
  writeFileSync(
    join(dir, 'test', 'server.test.ts'),
    `/// <reference types="node" />
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startMockServer, startProxy } from 'voice-kit/node';

const stateDir = mkdtempSync(join(tmpdir(), 'voice-kit-consumer-state-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
const key = { 'X-API-Key': 'mock-key' };
const total = async (url: string) =>
  ((await (await fetch(\`\${url}/v1/voice/list\`, { headers: key })).json()) as { data: { total: number } }).data.total;

it('keeps the state in a state dir across a restart', async () => {
  const first = await startMockServer({ port: 0, stateDir });
  const populated = await fetch(\`\${first.url}/__mock/populate\`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voices: 1, seed: 7 }),
  });
  expect(populated.status).toBe(200);
  await first.close();
  const second = await startMockServer({ port: 0, stateDir });
  try {
    expect(await total(second.url)).toBe(1);
  } finally {
    await second.close();
  }
});

it('serves the dashboard page and its assets from the package', async () => {
  const server = await startMockServer({ port: 0 });
  try {
    const page = await fetch(\`\${server.url}/__mock/\`, { headers: { Accept: 'text/html' } });
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const assets = [...(await page.text()).matchAll(/(?:src|href)="(\\/__mock\\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.sort()).toEqual(['/__mock/dashboard/dashboard.css', '/__mock/dashboard/dashboard.js']);
    for (const asset of assets) {
      const res = await fetch(\`\${server.url}\${asset}\`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^text\\/javascript/ : /^text\\/css/);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  } finally {
    await server.close();
  }
});

it('passes traffic through startProxy and judges it', async () => {
  const server = await startMockServer({ port: 0 });
  const proxy = await startProxy({ upstream: server.url, port: 0 });
  try {
    expect(await total(proxy.url)).toBe(0);
  } finally {
    const { report } = await proxy.close();
    await server.close();
    expect([report.ok, report.counts.exchanges, report.counts.violations]).toEqual([true, 1, 0]);
  }
});

const bin = createRequire(import.meta.url).resolve('voice-kit/package.json').replace(/package\\.json$/, 'dist/cli/bin.js');

it('runs the voice-kit bin: mock --state-dir, then proxy --help', async () => {
  const child = spawn(process.execPath, [bin, 'mock', '--port', '0', '--state-dir', stateDir]);
  let out = '';
  child.stderr.on('data', (c) => { out += c; });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\\/\\/\\S+) .*state kept in /.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(\`exited \${code}: \${out}\`)));
  });
  expect(await total(url)).toBe(1); // what the first test left in the state dir
  const code = await new Promise((resolve) => { child.on('exit', resolve); child.kill('SIGINT'); });
  expect(code).toBe(0);
  const help = spawn(process.execPath, [bin, 'proxy', '--help']);
  let text = '';
  help.stdout.on('data', (c) => { text += c; });
  expect(await new Promise((resolve) => help.on('exit', resolve))).toBe(0);
  expect(text).toMatch(/--upstream <url>/);
});
`,
  );
}
