#!/usr/bin/env node
// Builds the dashboard served at /__mock/ (mocks/dashboard/) into dist/dashboard/: one esbuild bundle
// of its TypeScript, and its HTML and CSS copied beside it. Part of `npm run build`; ensure-built.mjs
// runs it when a dashboard source is newer than the bundle; the dashboard test runs it too.
import { copyFileSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dashboardSource = join(root, 'mocks', 'dashboard');

/** Builds the dashboard into `outdir` (default dist/dashboard); answers the bundle's size in bytes. */
export async function buildDashboard(outdir = join(root, 'dist', 'dashboard')) {
  // Loaded here, not at the top: `npm start` imports this file and needs esbuild only when it builds.
  const { build } = await import('esbuild');
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(dashboardSource, 'main.ts')],
    outfile: join(outdir, 'dashboard.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  copyFileSync(join(dashboardSource, 'index.html'), join(outdir, 'index.html'));
  copyFileSync(join(dashboardSource, 'dashboard.css'), join(outdir, 'dashboard.css'));
  return Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const bytes = await buildDashboard();
  process.stdout.write(`dashboard: dist/dashboard/ (dashboard.js ${bytes} bytes)\n`);
}
