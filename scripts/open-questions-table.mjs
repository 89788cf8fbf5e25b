#!/usr/bin/env node
/**
 * Prints the README's "Where the spec is silent" table (Markdown) from the x-open-question entries
 * of openapi/voice-service.yaml.
 *
 * Usage: node scripts/open-questions-table.mjs > /tmp/table.md
 */
import { readFile } from 'node:fs/promises';
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
process.stdout.write(renderOpenQuestionsTable(questions));
