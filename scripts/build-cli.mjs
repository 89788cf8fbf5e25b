#!/usr/bin/env node
// Bundles the built CLI (tsc's dist/cli/bin.js and what it imports) into dist/bin/: the package's bin.
// Node's ES module loader costs per file, and the mock command loaded 120 of them, most of a fresh
// mock's time to its first answer; bundled with code splitting, each command loads only its own few
// chunks (the conformance suite, the explorer and the proxy stay behind their dynamic imports).
// npm dependencies stay imports. Part of `npm run build`, after tsc; ensure-built.mjs runs it when
// dist/ was rebuilt or the bundle is missing.
import { realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const cliOutdir = join(root, 'dist', 'bin');

/**
 * The bundle's entries, by their name in dist/bin/. The state dir's worker is one of them: state-db.ts
 * starts it from `./state-db-worker.js` beside its own module, which in the bundle is a chunk here.
 */
export const cliEntries = {
  'voice-kit': join(root, 'dist', 'cli', 'bin.js'),
  'state-db-worker': join(root, 'dist', 'mocks', 'node', 'state-db-worker.js'),
};

/** Bundles the CLI into `outdir` (default dist/bin/, emptied first); answers esbuild's metafile. */
export async function buildCli(outdir = cliOutdir) {
  // Loaded here, not at the top: `npm start` imports ensure-built.mjs and needs esbuild only when it builds.
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: Object.entries(cliEntries).map(([out, entry]) => ({ in: entry, out })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const metafile = await buildCli();
  const outputs = Object.values(metafile.outputs);
  const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
  process.stdout.write(`cli: dist/bin/ (${outputs.length} files, ${bytes} bytes)\n`);
}
