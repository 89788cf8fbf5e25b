#!/usr/bin/env node
// Builds dist/ only when a source is newer than the last build, so `npm start` answers in well under a
// second on an unchanged tree and still never runs stale code after an edit or a pull. Run as a script
// (`npm run bench`), or imported by scripts/start.mjs, which then runs the CLI in the same process.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The folders tsc builds: tsconfig.build.json's own list, so a new room is never missed (proxy/ was).
const sources = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).include;
const stamp = join(root, 'dist', '.tsbuildinfo');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const lock = join(root, 'dist', '.build-lock');

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/**
 * One build at a time: several `npm start` at once (replicas of one state, docs/replicas.md) would
 * otherwise each rewrite dist/ while another already runs it. The lock is a file naming its holder's
 * pid; one whose holder is gone (a build killed) is taken over.
 */
async function withBuildLock(build) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lock, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await build();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Rebuilds dist/ with tsc when a source changed since the last build (exits the process if tsc fails),
 * then the CLI's bundle (dist/bin/) when it is older than that build, and the dashboard's bundle when
 * one of its sources changed. Several at once build once: the others wait, then find it current.
 */
export async function ensureBuilt() {
  if (!stale() && !cliStale() && !dashboardStale()) return;
  await withBuildLock(async () => {
    const firstBuild = builtAt() === 0;
    const rebuilt = stale();
    if (rebuilt) build();
    if (cliStale()) await buildCliBundle(rebuilt);
    if (dashboardStale()) await buildDashboard(firstBuild);
  });
}

/** Whether a source is newer than the last build. */
function stale() {
  const changed = Math.max(
    ...sources.map((s) => newest(join(root, s))),
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
  );
  return changed > builtAt();
}

/** When dist/ was last built, 0 when never. */
function builtAt() {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return 0;
  }
}

function build() {
  process.stderr.write(`${buildLine('dist/', builtAt())}\n`);
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // tsc leaves its build info untouched when nothing needed emitting (e.g. after a checkout that only
  // changed mtimes); mark the build as current so the next start does not try again.
  const now = new Date();
  utimesSync(stamp, now, now);
}

/**
 * The one line said before a build: a fresh clone (`builtMs` 0, never built) has no build its sources
 * could be newer than, so that is its first build.
 *
 * @example
 * buildLine('dist/', 0); // 'voice-kit: building dist/ (first build)…'
 */
export function buildLine(what, builtMs) {
  return builtMs === 0
    ? `voice-kit: building ${what} (first build)…`
    : `voice-kit: building ${what} (sources changed since the last build)…`;
}

/** When the CLI's bundle (dist/bin/, package.json "bin") was last built, 0 when never. */
function cliBuiltAt() {
  try {
    return statSync(join(root, 'dist', 'bin', 'voice-kit.js')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether the CLI's bundle is missing or older than tsc's build or its own build script. */
function cliStale() {
  const script = statSync(join(root, 'scripts', 'build-cli.mjs')).mtimeMs;
  return cliBuiltAt() === 0 || cliBuiltAt() < Math.max(builtAt(), script);
}

/** Bundles the CLI into dist/bin/; says so unless `announced` (the build of dist/ just said it). */
async function buildCliBundle(announced) {
  if (!announced) process.stderr.write(`${buildLine('dist/bin/', cliBuiltAt())}\n`);
  const { buildCli } = await import('./build-cli.mjs');
  try {
    await buildCli();
  } catch {
    process.exit(1); // esbuild has printed what it could not bundle
  }
}

/** When the dashboard's bundle was last built, 0 when never. */
function dashboardBuiltAt() {
  try {
    return statSync(join(root, 'dist', 'dashboard', 'dashboard.js')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether one of the dashboard's sources is newer than its bundle (dist/dashboard/). */
function dashboardStale() {
  const source = join(root, 'mocks', 'dashboard');
  const changed = Math.max(...readdirSync(source).map((name) => statSync(join(source, name)).mtimeMs));
  return changed > dashboardBuiltAt();
}

/** Builds the dashboard's bundle; says so unless `announced` (the build of dist/ just said it). */
async function buildDashboard(announced) {
  if (!announced) process.stderr.write(`${buildLine('dist/dashboard/', dashboardBuiltAt())}\n`);
  const { buildDashboard: bundle } = await import('./build-dashboard.mjs');
  await bundle();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) await ensureBuilt();
