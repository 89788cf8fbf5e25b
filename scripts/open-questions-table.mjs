#!/usr/bin/env node
/**
 * Prints the README's "Where the spec is silent" table (Markdown) from the x-open-question entries
 * of openapi/voice-service.yaml.
 *
 * Usage: node scripts/open-questions-table.mjs           prints it
 *        node scripts/open-questions-table.mjs --write   puts it into README.md between the markers
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { collectOpenQuestions, renderOpenQuestionsTable } from './open-questions.mjs';

const specPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi', 'voice-service.yaml');
const { questions, problems } = collectOpenQuestions(parse(await readFile(specPath, 'utf8')));
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const table = renderOpenQuestionsTable(questions);
if (process.argv.includes('--write')) {
  const readmePath = join(dirname(specPath), '..', 'README.md');
  const readme = await readFile(readmePath, 'utf8');
  const start = '<!-- open-questions:start -->\n';
  const end = '<!-- open-questions:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`README.md has no ${start.trim()} … ${end} markers`);
    process.exit(1);
  }
  await writeFile(readmePath, readme.slice(0, from + start.length) + table + readme.slice(to));
} else {
  process.stdout.write(table);
}
