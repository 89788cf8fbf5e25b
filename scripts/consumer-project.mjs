/**
 * A consumer of the published package, as a user sets one up: the kit packed with `npm pack`, a fresh
 * project that installs the tarball with the latest vitest, msw, TypeScript and openapi-fetch from the
 * registry, and a small client suite that uses the kit four ways (in process, MSW in Node, the real
 * server, the `voice-kit` bin through `npx`). Used by scripts/test/consumer-install.test.ts (in
 * `npm test`, on the Node that runs it) and by scripts/consumer-trial.mjs (by hand, on other Nodes).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the consumer installs beside the tarball: the latest of each, as a new project would. */
export const consumerDependencies = [
  'msw@latest',
  'vitest@latest',
  'typescript@latest',
  '@types/node@latest',
  'openapi-fetch@latest',
];

/**
 * The environment of a child that must not see this repository: no npm_* or INIT_CWD of an outer npm
 * run, no VITEST* of an outer vitest, none of the repository's node_modules/.bin on the PATH, and
 * `nodeBin` (the folder of the Node to run on) first.
 */
export function cleanEnv(nodeBin) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|TINYPOOL)/i.test(k) || ['INIT_CWD', 'NODE', 'NODE_OPTIONS', 'TEST'].includes(k))
      continue;
    env[k] = v;
  }
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.startsWith(join(root, 'node_modules')));
  env.PATH = [nodeBin, ...path].join(delimiter);
  return env;
}

/**
 * Builds dist/ when a source changed, then packs the kit into `dest` (no prepack: dist/ is current).
 * Resolves with the tarball's path and npm's account of it: its files, packed and unpacked size.
 */
export async function packKit(dest, env) {
  await ensureBuilt();
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout);
  return {
    tarball: join(dest, info.filename),
    files: info.files.map((f) => f.path),
    size: info.size,
    unpackedSize: info.unpackedSize,
  };
}

/** A consumer project as a user would set one up: ES modules, strict TypeScript, vitest. */
export function writeProject(dir) {
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
  // A consumer's vitest knows nothing of the kit's: its defaults, and time for the bin's conformance run.
  writeFileSync(
    join(dir, 'vitest.config.js'),
    `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 30_000 } });
`,
  );
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
  writeFileSync(join(dir, 'test', 'client.test.ts'), clientTest);
  writeFileSync(join(dir, 'test', 'server.test.ts'), serverTest);
}

/** The client suite, through MSW in Node and in process (service.fetch as any fetch, and openapi-fetch). */
const clientTest = `import createClient from 'openapi-fetch';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockService, type MockService } from 'voice-kit';
import { errors } from 'voice-kit/contract';
import { createHandlers } from 'voice-kit/msw';
import type { components, paths } from 'voice-kit/types';

const baseUrl = 'https://voice.example.test';
const key = { 'X-API-Key': 'mock-key' };

/** A tiny client of the voice service, as an app would write it: it takes any fetch. */
function client(fetcher: typeof fetch) {
  return {
    async listVoices(apiKey = key) {
      const res = await fetcher(\`\${baseUrl}/v1/voice/list\`, { headers: apiKey });
      return { status: res.status, body: (await res.json()) as components['schemas']['ErrorEnvelope'] & { data: unknown } };
    },
    async speak(text: string) {
      const res = await fetcher(new URL('/v1/text-to-speech', baseUrl), {
        method: 'POST',
        headers: { ...key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: text }),
      });
      return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}

function suite(fetcher: typeof fetch, service: MockService) {
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
  // A fetch that reads the global one when called: MSW puts its interceptor there in listen().
  suite((input, init) => fetch(input, init), service);
});

describe('in process: service.fetch is a fetch', () => {
  const service = createMockService();
  suite(service.fetch, service);

  it("is handed to openapi-fetch's createClient as it is", async () => {
    const typed = createClient<paths>({ baseUrl, headers: key, fetch: service.fetch });
    const { data, response } = await typed.GET('/v1/voice/list');
    expect(response.status).toBe(200);
    expect(data?.data.total).toBe(0);
  });
});
`;

/** The real server, its state dir, dashboard and proxy; then the bin through npx: mock and conformance. */
const serverTest = `/// <reference types="node" />
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startMockServer, startProxy } from 'voice-kit/node';

const work = mkdtempSync(join(tmpdir(), 'voice-kit-consumer-state-'));
const stateDir = join(work, 'state');
afterAll(() => rmSync(work, { recursive: true, force: true }));
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

/** npx voice-kit <args> in this project: its exit code and output. */
function npx(args: string[], onOutput?: (text: string) => void) {
  // Its own process group, so that a stop reaches the bin under npx too.
  const child = spawn('npx', ['--no-install', 'voice-kit', ...args], { detached: true });
  let out = '';
  const take = (c: Buffer) => {
    out += c;
    onOutput?.(out);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exited, output: () => out, stop: () => process.kill(-(child.pid as number), 'SIGINT') };
}

it('runs the bin: npx voice-kit mock --state-dir, then npx voice-kit conformance --base-url against it', async () => {
  let found: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => {
    found = resolve;
  });
  const mock = npx(['mock', '--port', '0', '--state-dir', stateDir], (text) => {
    const m = /listening on (http:\\/\\/\\S+) .*state kept in /.exec(text);
    if (m?.[1]) found(m[1]);
  });
  let url = '';
  try {
    url = await Promise.race([
      listening,
      mock.exited.then((code) => Promise.reject(new Error(\`exited \${code}: \${mock.output()}\`))),
    ]);
    expect(await total(url)).toBe(1); // what the first test left in the state dir
    // The bin is a bundle in dist/bin/: its chunks still find the dashboard and the committed fixtures.
    expect((await fetch(\`\${url}/__mock/dashboard/dashboard.js\`)).status).toBe(200);
    const run = npx([
      'conformance', '--base-url', url, '--api-key', 'mock-key',
      '--only', 'list.*,delete.*,voice-save.reference.flac-renamed',
      '--report-dir', join(work, 'reports'),
    ]);
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain('PASS: every must case passed');
    expect(run.output()).toMatch(/ ok +voice-save\\.reference\\.flac-renamed /);
    const versioned = npx(['conformance', '--base-url', \`\${url}/v1\`, '--api-key', 'mock-key']);
    expect(await versioned.exited).toBe(2);
    expect(versioned.output()).toMatch(/--base-url ends in \\/v1\\b.*drop it/);
  } finally {
    mock.stop(); // Ctrl-C: to the whole group, as a terminal sends it
  }
  await mock.exited; // npm re-raises the signal once the mock has stopped (a shell shows 130)
  if (url) await expect.poll(() => fetch(url).then(() => true, () => false), { timeout: 10_000 }).toBe(false);
});
`;
