/**
 * The kit as a user installs it (docs/testing.md, "Install"): packed with `npm pack`, checked for what
 * it ships and its size, installed from the tarball into a fresh project with the latest vitest, msw,
 * TypeScript and openapi-fetch from the npm registry, type-checked there, and that project's own client
 * suite run: in process, MSW in Node, the real server, and the `voice-kit` bin through npx (mock, and
 * conformance against it). The project is in scripts/consumer-project.mjs; scripts/consumer-trial.mjs
 * runs the same on other Nodes by hand. Needs the npm registry (npm's cache serves a repeat).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, consumerDependencies, packKit, root, writeProject } from '../consumer-project.mjs';
import { buildLine } from '../ensure-built.mjs';

/**
 * The budget of the packed kit: a change that ships far more (a folder let in by mistake) fails here.
 * The CLI ships once, as its bundle (dist/bin/, ~1.3 MB unpacked): tsc's dist/cli/ stays out.
 */
const budget = { packedBytes: 2_400_000, unpackedBytes: 6_000_000, files: 720 };

/** What the package must never hold: tests, source maps, the lab's notes, the maintainers' scripts. */
const notShipped = [
  /\.test\.(js|d\.ts)$/,
  /(^|\/)test\//,
  /\.map$/,
  /\.tsbuildinfo$/,
  /^(scripts|bench|node_modules|reports|judge|mocks\/(node|test))\//,
  /^dist\/cli\//,
  /^docs\/(performance|development)\.md$/,
  /^ARCHITECTURE\.md$/,
  /^\.[^/]/,
];

const work = mkdtempSync(join(tmpdir(), 'voice-kit-consumer-'));
const project = join(work, 'consumer');
// NO_COLOR: the consumer's vitest reports in plain text, read below.
const env = { ...cleanEnv(dirname(process.execPath)), NO_COLOR: '1' };
let packed: Awaited<ReturnType<typeof packKit>>;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  engines: { node: string };
  exports: Record<string, string | { types: string; default: string }>;
};

/** A command in the consumer project: its exit code and all it printed. */
function inProject(command: string, args: readonly string[], timeout: number) {
  const result = spawnSync(command, args, {
    cwd: project,
    env,
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

beforeAll(async () => {
  packed = await packKit(work, env);
  writeProject(project);
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('voice-kit packed and installed into a fresh project', () => {
  it('is ready to publish as voice-kit: every export, the bin and the dashboard in it, nothing of the lab', () => {
    expect(pkg.name).toBe('voice-kit');
    expect(packed.tarball.endsWith(`voice-kit-${pkg.version}.tgz`)).toBe(true);
    expect(pkg.engines.node).toBe('>=22.12');
    const files = new Set(packed.files);
    const targets = Object.values(pkg.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : [t.types, t.default],
    );
    for (const target of [
      ...targets,
      ...Object.values(pkg.bin),
      './dist/bin/state-db-worker.js',
      './dist/dashboard/dashboard.js',
    ])
      expect(files.has(target.replace(/^\.\//, '')), target).toBe(true);
    expect(packed.files.filter((f) => notShipped.some((re) => re.test(f)))).toEqual([]);
  });

  it(`stays within its size budget (${budget.packedBytes / 1e6} MB packed, ${budget.unpackedBytes / 1e6} MB unpacked)`, () => {
    expect(packed.size).toBeLessThan(budget.packedBytes);
    expect(packed.unpackedSize).toBeLessThan(budget.unpackedBytes);
    expect(packed.files.length).toBeLessThan(budget.files);
  });

  it('installs from the tarball with the latest vitest, msw, TypeScript and openapi-fetch, no warning', () => {
    const { status, output } = inProject(
      'npm',
      [
        'install',
        '--save-dev',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        packed.tarball,
        ...consumerDependencies,
      ],
      150_000,
    );
    expect(status, output).toBe(0);
    // npm's complaints about the machine's own npm configuration are not the kit's.
    const warnings = output
      .split('\n')
      .filter(
        (l) =>
          /warn|deprecat/i.test(l) && !/^npm warn Unknown (user|global|project|env|builtin) config /.test(l),
      );
    expect(warnings).toEqual([]);
  }, 160_000);

  it('type-checks: strict, node16, skipLibCheck off, every declaration file shipped, service.fetch as a fetch', () => {
    const { status, output } = inProject(
      join(project, 'node_modules', '.bin', 'tsc'),
      ['--noEmit', '-p', project],
      60_000,
    );
    expect(status, output).toBe(0);
  }, 70_000);

  it("passes the project's suite: in process, MSW node, the real server, npx voice-kit mock and conformance", () => {
    const { status, output } = inProject(join(project, 'node_modules', '.bin', 'vitest'), ['run'], 120_000);
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
    expect(output).not.toMatch(/warn/i);
  }, 130_000);
});

describe('the build line of a fresh clone', () => {
  it('says first build, not that sources changed, when there was never a build', () => {
    expect(buildLine('dist/', 0)).toBe('voice-kit: building dist/ (first build)…');
    expect(buildLine('dist/', Date.now())).toBe(
      'voice-kit: building dist/ (sources changed since the last build)…',
    );
  });
});
