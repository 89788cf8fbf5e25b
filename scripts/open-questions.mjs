/**
 * The `x-open-question` entries of the OpenAPI document: collected (with the JSON pointer of the node
 * that carries each), checked, and rendered as the "Where the spec is silent" table of docs/spec-silent.md.
 * Plain ESM so that scripts run without a TypeScript loader; typed by open-questions.d.mts.
 *
 * @example
 * const { questions, problems } = collectOpenQuestions(doc);
 * console.log(renderOpenQuestionsTable(questions));
 */

import { linkSections, sectionHref } from './markdown.mjs';

const idPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const fields = ['id', 'section', 'question', 'mock'];

/** RFC 6901 escaping of one pointer segment. */
function escapeSegment(segment) {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Walks the document in key order. An object or array value of `x-open-question` defines entries; a
 * string value refers to an entry defined elsewhere (several responses share `voice-save-statuses`).
 */
export function collectOpenQuestions(doc) {
  const questions = [];
  const references = [];
  const problems = [];

  const define = (entry, where) => {
    if (!isPlainObject(entry)) {
      problems.push(`${where}: x-open-question entry is not an object`);
      return;
    }
    for (const field of fields) {
      if (typeof entry[field] !== 'string' || entry[field].trim() === '') {
        problems.push(`${where}: x-open-question field "${field}" must be a non-empty string`);
      }
    }
    const extra = Object.keys(entry).filter((key) => !fields.includes(key));
    if (extra.length > 0) problems.push(`${where}: unexpected x-open-question fields ${extra.join(', ')}`);
    if (typeof entry.id === 'string' && !idPattern.test(entry.id)) {
      problems.push(`${where}: x-open-question id "${entry.id}" is not kebab-case`);
    }
    questions.push({
      id: entry.id,
      section: entry.section,
      question: entry.question,
      mock: entry.mock,
      where,
      refs: [],
    });
  };

  const walk = (node, pointer) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, `${pointer}/${index}`);
      return;
    }
    if (!isPlainObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-open-question') {
        if (typeof value === 'string') references.push({ id: value, where: pointer });
        else if (Array.isArray(value)) for (const entry of value) define(entry, pointer);
        else define(value, pointer);
        continue;
      }
      walk(value, `${pointer}/${escapeSegment(key)}`);
    }
  };
  walk(doc, '');

  const byId = new Map();
  for (const question of questions) {
    if (byId.has(question.id)) problems.push(`x-open-question id "${question.id}" is defined twice`);
    else byId.set(question.id, question);
  }
  for (const reference of references) {
    const target = byId.get(reference.id);
    if (target) target.refs.push(reference.where);
    else problems.push(`${reference.where}: x-open-question "${reference.id}" refers to no defined entry`);
  }
  return { questions, problems };
}

function cell(text) {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The "Where the spec is silent" table of docs/spec-silent.md, one row per entry, in document order. */
export function renderOpenQuestionsTable(questions) {
  const rows = questions.map(
    (q) => `| \`${q.id}\` | ${cell(q.section)} | ${cell(q.question)} | ${cell(q.mock)} |`,
  );
  return [
    '| id | spec § | what the spec leaves open | what the kit’s mock does |',
    '|---|---|---|---|',
    ...rows,
  ]
    .join('\n')
    .concat('\n');
}

/**
 * The table as docs/spec-silent.md holds it: each § a link to its section on docs/spec-sections.md
 * (whose text is `specSections`).
 */
export function renderLinkedOpenQuestionsTable(questions, specSections) {
  return linkSections(renderOpenQuestionsTable(questions), sectionHref(specSections));
}

/** The ids listed in the first column of a table rendered by `renderOpenQuestionsTable`. */
export function tableIds(markdown) {
  const ids = [];
  for (const line of markdown.split('\n')) {
    const match = /^\|\s*`([^`]+)`\s*\|/.exec(line);
    if (match?.[1]) ids.push(match[1]);
  }
  return ids;
}
