#!/usr/bin/env node
// Builds dist/ only when a source is newer than the last build, so `npm start` answers in well under a
// second on an unchanged tree and still never runs stale code after an edit or a pull. Run as a script
// (`npm run bench`), or imported by scripts/start.mjs, which then runs the CLI in the same process.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync, utimesSync } from 'node:fs';
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

/**
 * Rebuilds dist/ with tsc when a source changed since the last build (exits the process if tsc fails),
 * and the dashboard's bundle when one of its sources did.
 */
export async function ensureBuilt() {
  let built = 0;
  try {
    built = statSync(stamp).mtimeMs;
  } catch {
    // never built
  }
  const changed = Math.max(
    ...sources.map((s) => newest(join(root, s))),
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
  );
  if (changed > built) {
    process.stderr.write(`${buildLine('dist/', built)}\n`);
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
  await ensureDashboard(changed > built);
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

/**
 * Builds the dashboard (dist/dashboard/) when one of its sources is newer than its bundle; says so unless
 * `announced` (the build of dist/ just said it, which covers the dashboard's first build too).
 */
async function ensureDashboard(announced) {
  let built = 0;
  try {
    built = statSync(join(root, 'dist', 'dashboard', 'dashboard.js')).mtimeMs;
  } catch {
    // never built
  }
  const source = join(root, 'mocks', 'dashboard');
  const changed = Math.max(...readdirSync(source).map((name) => statSync(join(source, name)).mtimeMs));
  if (changed <= built) return;
  if (!announced) process.stderr.write(`${buildLine('dist/dashboard/', built)}\n`);
  const { buildDashboard } = await import('./build-dashboard.mjs');
  await buildDashboard();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) await ensureBuilt();
