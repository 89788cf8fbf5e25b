#!/usr/bin/env node
/**
 * Prints the "Where the spec is silent" table (Markdown) of docs/spec-silent.md from the
 * x-open-question entries of openapi/voice-service.yaml.
 *
 * Usage: node scripts/open-questions-table.mjs           prints it
 *        node scripts/open-questions-table.mjs --write   puts it into docs/spec-silent.md between the markers
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
  const pagePath = join(dirname(specPath), '..', 'docs', 'spec-silent.md');
  const page = await readFile(pagePath, 'utf8');
  const start = '<!-- open-questions:start -->\n';
  const end = '<!-- open-questions:end -->';
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`docs/spec-silent.md has no ${start.trim()} … ${end} markers`);
    process.exit(1);
  }
  await writeFile(pagePath, page.slice(0, from + start.length) + table + page.slice(to));
} else {
  process.stdout.write(table);
}
