#!/usr/bin/env node
/**
 * The consumer trial: what a user of the published package meets. Packs the kit (`npm pack`), then for
 * each Node of the trial (default 24 and 26, the latest of each from the registry's node-linux-<arch>
 * packages) makes a fresh project in a temporary directory, installs the tarball there with the latest
 * msw, vitest, TypeScript, @types/node and openapi-fetch (the project of consumer-project.mjs, which
 * scripts/test/consumer-install.test.ts runs in `npm test` on the pinned Node), and checks that:
 *   - `npm install` needs no --legacy-peer-deps and prints no warning (no peer conflict, no engine);
 *   - `tsc --noEmit` passes with strict, module/moduleResolution node16 and skipLibCheck off, on a file
 *     that imports every entry of the exports map and on every declaration file the kit ships;
 *   - a tiny client suite passes under vitest through voice-kit/msw (setupServer from msw/node) and
 *     in process (service.fetch as any fetch, and handed to openapi-fetch), printing no warning;
 *   - what only the package's files make work (a file left out of "files" breaks it): the mock
 *     with a state dir (its SQLite worker) kept across a restart, the dashboard page and its
 *     assets, `startProxy` in front of the mock, and the `voice-kit` bin through npx (`mock
 *     --state-dir`, `conformance --base-url` against it).
 * npm, tsc and vitest all run on the Node of the trial. Not part of `npm test`: it installs from the
 * registry for each Node. Usage: node scripts/consumer-trial.mjs [--node 24,26] [--keep]
 * (--keep leaves the projects in place and prints where). Exits 1 if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, consumerDependencies, packKit, writeProject } from './consumer-project.mjs';

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
  const { tarball } = await packKit(work, cleanEnv(dirname(process.execPath)));
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
        `npm install voice-kit (the tarball) ${consumerDependencies.join(' ')}`,
        'npm',
        ['install', '--save-dev', tarball, ...consumerDependencies],
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
        'vitest run (voice-kit/msw under msw/node; service.fetch; state dir, dashboard, proxy, npx voice-kit)',
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
