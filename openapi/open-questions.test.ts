// x-open-question entries are the kit's record of where the spec is silent: the table of docs/spec-silent.md, the
// conformance suite's observe cases and contract.ts refer to them by id.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  collectOpenQuestions,
  renderLinkedOpenQuestionsTable,
  renderOpenQuestionsTable,
  tableIds,
} from '../scripts/open-questions.mjs';
import { openQuestions } from './generated/open-questions.js';
import { document } from './test/load-document.js';

const { questions, problems } = collectOpenQuestions(document);
const ids = questions.map((q) => q.id);

/** The ids of the "Decisions already taken" table that every helper follows. */
const decided = [
  'voice-save-statuses',
  'voice-save-data',
  'voice-id-invalid-characters',
  'ref-audio-not-accessible',
  'voice-cloning-disabled-error',
  'pause-limit',
  'usable-speech-criteria',
  'free-uses-and-price',
  'max-custom-voices',
  'page-size-out-of-range',
  'list-order',
  'list-errors',
  'voice-url-lifetime',
  'delete-response-body',
  'delete-refused-status',
  'max-text-length',
  'synthesis-rate-limit',
  'allowed-options',
  'default-voice',
  'default-audio-format',
  'text-alias',
  'pcm-header-names',
  'expression-tag-syntax',
  'speed-range',
  'emotion-support',
  'synthesis-errors',
  'general-errors',
  'stream-chunking',
  'states',
  'events',
  'versioning',
];

describe('x-open-question entries of voice-service.yaml', () => {
  it('are well formed, unique, and every string reference names one of them', () => {
    expect(problems).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(decided)('records the decided point %s', (id) => {
    expect(ids).toContain(id);
  });

  it('voice-save-statuses is referenced from each voice-save error response it governs', () => {
    const refs = questions.find((q) => q.id === 'voice-save-statuses')?.refs ?? [];
    for (const status of ['400', '409', '413']) {
      expect(refs).toContain(`/paths/~1v1~1voice~1save/post/responses/${status}`);
    }
  });

  it('match the generated list', () => {
    expect(openQuestions).toEqual(questions);
  });
});

describe('collectOpenQuestions', () => {
  const entry = { id: 'a-b', section: '§1', question: 'q?', mock: 'm.' };
  const bad: [string, unknown, string][] = [
    [
      'a duplicate id',
      { x: { 'x-open-question': entry }, y: { 'x-open-question': [entry] } },
      'defined twice',
    ],
    ['a dangling reference', { x: { 'x-open-question': 'nope' } }, 'refers to no defined entry'],
    ['a missing field', { x: { 'x-open-question': { ...entry, mock: '' } } }, 'field "mock"'],
    ['an id that is not kebab-case', { x: { 'x-open-question': { ...entry, id: 'A_b' } } }, 'not kebab-case'],
    ['an unknown field', { x: { 'x-open-question': { ...entry, extra: 1 } } }, 'unexpected'],
  ];
  it.each(bad)('reports %s', (_name, doc, message) => {
    expect(collectOpenQuestions(doc).problems.join('\n')).toContain(message);
  });

  it('locates definitions and references by JSON pointer', () => {
    const doc = {
      paths: { '/v1/a': { get: { 'x-open-question': entry } } },
      r: { 'x-open-question': 'a-b' },
    };
    expect(collectOpenQuestions(doc).questions).toEqual([
      { ...entry, where: '/paths/~1v1~1a/get', refs: ['/r'] },
    ]);
  });
});

describe('the "Where the spec is silent" table', () => {
  const table = renderOpenQuestionsTable(questions);

  it('has one row per entry, in document order, with pipes escaped', () => {
    expect(tableIds(table)).toEqual(ids);
    const piped = renderOpenQuestionsTable([{ id: 'p', section: '§1', question: 'a | b', mock: 'c' }]);
    expect(piped).toContain('a \\| b');
  });

  const page = new URL('../docs/spec-silent.md', import.meta.url);
  const text = existsSync(page) ? readFileSync(page, 'utf8') : '';
  const sections = readFileSync(new URL('../docs/spec-sections.md', import.meta.url), 'utf8');
  it('links each § of the table to its section on docs/spec-sections.md', () => {
    const linked = renderLinkedOpenQuestionsTable(questions, sections);
    expect(tableIds(linked)).toEqual(ids);
    expect(linked).toContain(
      '| `pause-limit` | [§4.2](spec-sections.md#42-save-a-voice), [§7.2](spec-sections.md#72-voice-creation-errors) |',
    );
  });

  it('in docs/spec-silent.md is exactly the table generated from the YAML (npm run open-questions:table)', () => {
    const table = renderLinkedOpenQuestionsTable(questions, sections);
    const start = '<!-- open-questions:start -->\n';
    const from = text.indexOf(start);
    const to = text.indexOf('<!-- open-questions:end -->');
    expect(from, 'docs/spec-silent.md must hold the open-questions markers').toBeGreaterThanOrEqual(0);
    expect(text.slice(from + start.length, to)).toBe(table);
    expect([...tableIds(text.slice(from, to))].sort()).toEqual([...ids].sort());
  });
});
