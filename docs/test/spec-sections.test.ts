// docs/spec-sections.md is where every "§" of voice-kit leads: the spec itself is not in the repository.
// These tests hold every section the kit cites (OpenAPI, contract, cases, messages, docs) to that page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allCases } from '../../conformance/cases/index.js';
import { errors, limits } from '../../openapi/contract.js';
import { openQuestions } from '../../openapi/generated/open-questions.js';
import { document, operations } from '../../openapi/test/load-document.js';
import { headings, listedSections, sectionsCited, unlinkedSections } from '../../scripts/markdown.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(root, 'docs', 'spec-sections.md'), 'utf8');
const listed = listedSections(page);

/** Each section of the spec, with the parents 2, 4 and 7 that hold subsections. */
const specSections = [
  ...['1', '2', '2.1', '2.2', '2.3', '2.4', '2.5', '3', '4', '4.1', '4.2', '4.3', '4.4', '4.5', '4.6'],
  ...['5', '6', '7', '7.1', '7.2', '7.3', '8', '9'],
];

function expectListed(citation: string, where: string) {
  const cited = sectionsCited(citation);
  expect(cited.length, `${where}: "${citation}" cites no section`).toBeGreaterThan(0);
  for (const id of cited)
    expect(listed.has(id), `${where}: §${id} is not on docs/spec-sections.md`).toBe(true);
}

describe('docs/spec-sections.md', () => {
  it('has a heading for every section of the spec, and for nothing else', () => {
    const ids = headings(page)
      .map((h) => /^§(\d+(?:\.\d+)?)\s/.exec(h.text)?.[1])
      .filter((id) => id !== undefined);
    expect(ids).toEqual(specSections);
  });

  it('lists the numbered items of §1 and §5 that the kit cites (§1.3, §5.5…)', () => {
    for (const id of ['1.1', '1.2', '1.3', '1.4', '1.5', '5.1', '5.2', '5.3', '5.4', '5.5']) {
      expect(listed.get(id), id).toBe(listed.get(id.split('.')[0] as string));
    }
  });
});

describe('every section the kit cites is on docs/spec-sections.md', () => {
  it.each(operations().map((e) => [e.operationId, e.op['x-spec-section'] as string] as const))(
    'operation %s (x-spec-section %s)',
    (id, section) => expectListed(section, id),
  );

  it.each(Object.entries(errors).map(([name, e]) => [name, e.section] as const))(
    'error catalogue entry %s (%s)',
    (name, section) => expectListed(section, name),
  );

  it.each(
    Object.entries(limits).map(([name, l]) => [name, l.section, document['x-limits'][name].section] as const),
  )('limit %s (%s; x-limits %s)', (name, section, yamlSection) => {
    expectListed(section, `limits.${name}`);
    expectListed(yamlSection, `x-limits.${name}`);
  });

  it.each(openQuestions.map((q) => [q.id, q.section] as const))('open question %s (%s)', (id, section) =>
    expectListed(section, id),
  );

  it('every conformance case', () => {
    for (const c of allCases) expectListed(c.section, c.id);
  });

  it('every x-spec-section of the YAML', () => {
    const found: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (key === 'x-spec-section') found.push(String(value));
          walk(value);
        }
    };
    walk(document);
    expect(found.length).toBeGreaterThan(40);
    for (const section of found) expectListed(section, 'x-spec-section');
  });

  // Messages, headers, comments, generated types and docs: any "§N" or "spec section N" in the sources.
  const folders = ['openapi', 'mocks', 'conformance', 'fixtures', 'cli', 'scripts', 'docs'];
  const textFile = /\.(ts|mts|mjs|md|yaml|json)$/;
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'files') return [];
      return statSync(path).isDirectory() ? files(path) : textFile.test(name) ? [path] : [];
    });
  }
  const sources = [
    ...['README.md', 'ARCHITECTURE.md', 'CHANGELOG.md'].map((name) => join(root, name)),
    ...folders.flatMap((folder) => files(join(root, folder))),
  ];
  it.each(sources.map((path) => [relative(root, path)]))('%s', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const cited = [
      ...sectionsCited(text),
      ...[...text.matchAll(/spec section (\d+(?:\.\d+)?)/g)].map((m) => m[1] as string),
    ];
    const missing = [...new Set(cited.filter((id) => !listed.has(id)))];
    expect(missing, `${file} cites sections docs/spec-sections.md does not list`).toEqual([]);
  });
});

describe('every § in the docs links to its section', () => {
  const pages = [
    'README.md',
    'ARCHITECTURE.md',
    'CHANGELOG.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  it.each(pages)('%s', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    expect(unlinkedSections(text), '`npm run generate` links them').toEqual([]);
    const prefix =
      file === 'docs/spec-sections.md'
        ? ''
        : file.startsWith('docs/')
          ? 'spec-sections.md'
          : 'docs/spec-sections.md';
    for (const match of text.matchAll(/\[§(\d+(?:\.\d+)?)\]\(([^)]*)\)/g)) {
      expect(match[2], `${file}: §${match[1]}`).toBe(`${prefix}#${listed.get(match[1] as string)}`);
    }
  });
});
