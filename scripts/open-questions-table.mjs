#!/usr/bin/env node
/**
 * The "Where the spec is silent" table of docs/spec-silent.md, generated from the x-open-question
 * entries of openapi/voice-service.yaml; each § links to its section on docs/spec-sections.md.
 *
 * Usage: node scripts/open-questions-table.mjs           prints it
 *        node scripts/open-questions-table.mjs --write   puts it into docs/spec-silent.md between the markers
 *        node scripts/open-questions-table.mjs --check   exits 1 when the page holds another table
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { collectOpenQuestions, renderLinkedOpenQuestionsTable } from './open-questions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specPath = join(root, 'openapi', 'voice-service.yaml');
const pagePath = join(root, 'docs', 'spec-silent.md');
const { questions, problems } = collectOpenQuestions(parse(await readFile(specPath, 'utf8')));
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const table = renderLinkedOpenQuestionsTable(
  questions,
  await readFile(join(root, 'docs', 'spec-sections.md'), 'utf8'),
);
const write = process.argv.includes('--write');
const check = process.argv.includes('--check');
if (write || check) {
  const page = await readFile(pagePath, 'utf8');
  const start = '<!-- open-questions:start -->\n';
  const end = '<!-- open-questions:end -->';
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`docs/spec-silent.md has no ${start.trim()} … ${end} markers`);
    process.exit(1);
  }
  const updated = page.slice(0, from + start.length) + table + page.slice(to);
  if (check && updated !== page) {
    console.error(
      'docs/spec-silent.md holds a stale table (voice-service.yaml or docs/spec-sections.md changed without `npm run generate`).\nRun `npm run generate` and commit the result.',
    );
    process.exit(1);
  }
  if (write && updated !== page) await writeFile(pagePath, updated);
  if (check) console.log('docs/spec-silent.md holds the table of the YAML.');
} else {
  process.stdout.write(table);
}
