/**
 * Regenerates every generated fixture and writes their sizes and SHA-256 digests to
 * fixtures/generated-digests.ts (the manifest's committed constants). Run after a deliberate change to
 * the synthesizer or a fixture:
 *
 *   npx tsx scripts/fixtures-manifest.ts          # rewrite the file
 *   npx tsx scripts/fixtures-manifest.ts --check  # exit 1 when the file is out of date
 */

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedFixtures } from '../fixtures/generate.js';

const target = fileURLToPath(new URL('../fixtures/generated-digests.ts', import.meta.url));
const lines = generatedFixtures.map((fixture) => {
  const bytes = fixture.generate();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  console.log(`${fixture.id.padEnd(18)} ${String(bytes.length).padStart(10)}  ${sha256}`);
  // Quote only keys that need it, as the formatter does, so the written file is already formatted.
  const key = /^[a-z_$][\w$]*$/i.test(fixture.id) ? fixture.id : `'${fixture.id}'`;
  return `  ${key}: {\n    bytes: ${bytes.length},\n    sha256: '${sha256}',\n  },`;
});
const source = `/**
 * Sizes and SHA-256 digests of the generated fixtures, written by \`npx tsx scripts/fixtures-manifest.ts\`.
 * Do not edit by hand: a test regenerates every fixture and compares it with these constants.
 */
export interface Digest {
  readonly bytes: number;
  readonly sha256: string;
}

export const generatedDigests: Readonly<Record<string, Digest>> = {
${lines.join('\n')}
};
`;
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== source) {
    console.error('fixtures/generated-digests.ts is out of date: run npx tsx scripts/fixtures-manifest.ts');
    process.exit(1);
  }
  console.log('fixtures/generated-digests.ts is up to date');
} else {
  writeFileSync(target, source);
  console.log(`wrote ${target}`);
}
