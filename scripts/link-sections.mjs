#!/usr/bin/env node
/**
 * Makes every "§4.2" of the repository's Markdown pages (README.md, ARCHITECTURE.md, CHANGELOG.md,
 * docs/*.md) a link to that section on docs/spec-sections.md, so a writer types §4.2 and
 * `npm run generate` links it. A § in code, in a heading or already in a link stays as it is.
 *
 * Usage: node scripts/link-sections.mjs           lists the pages it would change
 *        node scripts/link-sections.mjs --write   links them
 *        node scripts/link-sections.mjs --check   exits 1 when a page has a § that is not a link
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkSections, sectionHref } from './markdown.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specSections = readFileSync(join(root, 'docs', 'spec-sections.md'), 'utf8');
const pages = [
  ['README.md', 'docs/spec-sections.md'],
  ['ARCHITECTURE.md', 'docs/spec-sections.md'],
  ['CHANGELOG.md', 'docs/spec-sections.md'],
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => [`docs/${name}`, name === 'spec-sections.md' ? '' : 'spec-sections.md']),
];

const stale = [];
for (const [page, prefix] of pages) {
  const text = readFileSync(join(root, page), 'utf8');
  const linked = linkSections(text, sectionHref(specSections, prefix));
  if (linked === text) continue;
  stale.push(page);
  if (process.argv.includes('--write')) writeFileSync(join(root, page), linked);
}
if (process.argv.includes('--check') && stale.length > 0) {
  console.error(
    `A § of these pages is not a link to docs/spec-sections.md:\n  ${stale.join('\n  ')}\nRun \`npm run generate\` and commit the result.`,
  );
  process.exit(1);
}
if (!process.argv.includes('--write') && !process.argv.includes('--check')) console.log(stale.join('\n'));
else if (process.argv.includes('--check'))
  console.log(`every § of ${pages.length} pages links to its section.`);
else
  console.log(
    `linked the § of ${stale.length} of ${pages.length} pages${stale.length ? `: ${stale.join(', ')}` : ''}`,
  );
