/**
 * The layout of the repository as a test (ARCHITECTURE.md and each folder's README say the same in
 * prose): no import circle anywhere, type-only imports and tests included; each folder imports only
 * what it may (tests may import whatever they test); the platform-free parts use no Node built-in.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, type SourceFile, sourceFiles, under } from '../import-graph.js';

const root = join(import.meta.dirname, '..', '..');
const files = sourceFiles(root, ['openapi', 'mocks', 'conformance', 'fixtures', 'cli', 'proxy', 'scripts']);
const isTest = (file: SourceFile) => file.path.endsWith('.test.ts') || file.path.split('/').includes('test');

/** What each folder may import of the repository, besides itself; the most specific rule wins. */
const mayImport: Record<string, readonly string[]> = {
  'openapi/': [],
  'mocks/config/': ['openapi/'],
  'mocks/audio/types.ts': ['openapi/'],
  'mocks/audio/index.ts': ['mocks/audio/'],
  'mocks/audio/containers/': ['mocks/audio/types.ts'],
  'mocks/audio/synthesis/': ['mocks/audio/types.ts', 'openapi/'],
  'mocks/audio/analysis/': ['mocks/audio/containers/', 'mocks/audio/types.ts', 'openapi/'],
  'mocks/core/': ['mocks/audio/', 'mocks/config/', 'openapi/'],
  'mocks/index.ts': ['mocks/core/', 'mocks/config/'],
  'mocks/msw.ts': ['mocks/core/'],
  'mocks/node/': ['mocks/core/', 'mocks/config/', 'openapi/'],
  // The page at /__mock/: browser code that reads the control API's JSON like any script.
  'mocks/dashboard/': [],
  // voice-kit/node exports the proxy too; nothing else of mocks/node/ uses it.
  'mocks/node/index.ts': ['mocks/node/', 'mocks/core/', 'mocks/config/', 'openapi/', 'proxy/'],
  'conformance/types.ts': [],
  'conformance/checks/': ['openapi/'],
  'conformance/toolkit/': ['conformance/types.ts', 'conformance/checks/', 'openapi/'],
  'conformance/cases/': ['conformance/types.ts', 'conformance/toolkit/', 'conformance/checks/', 'openapi/'],
  'conformance/reporters/': ['conformance/types.ts', 'openapi/generated/'],
  'conformance/setup/': ['conformance/types.ts', 'conformance/toolkit/', 'openapi/', 'mocks/', 'fixtures/'],
  'conformance/run/': [
    'conformance/types.ts',
    'conformance/setup/',
    'conformance/toolkit/',
    'conformance/cases/',
    'openapi/',
  ],
  // --explore: sequences judged by the one judge, on the suite's setup and toolkit.
  'conformance/explore/': [
    'conformance/types.ts',
    'conformance/setup/',
    'conformance/toolkit/',
    'conformance/reporters/junit.ts',
    'openapi/',
    'judge/',
  ],
  'conformance/index.ts': ['conformance/', 'openapi/'],
  'fixtures/': ['mocks/audio/', 'openapi/'],
  'cli/': ['conformance/', 'mocks/', 'proxy/'],
  'proxy/': [
    'openapi/',
    'mocks/node/young-sweep.ts',
    'mocks/audio/containers/',
    'conformance/checks/envelope.ts',
    'conformance/checks/schema.ts',
    'conformance/checks/documented-pairs.ts',
    'conformance/reporters/junit.ts',
  ],
  'scripts/': ['openapi/', 'mocks/', 'conformance/', 'fixtures/', 'cli/', 'proxy/'],
};

/** What `voice-kit` and `voice-kit/msw` load: web platform only (mocks/core/tsconfig.json checks the types). */
const platformFree = [
  'openapi/',
  'mocks/config/',
  'mocks/audio/',
  'mocks/core/',
  'mocks/index.ts',
  'mocks/msw.ts',
  'mocks/dashboard/',
];

const ruleOf = (path: string) =>
  Object.keys(mayImport)
    .filter((rule) => under(path, rule))
    .sort((a, b) => b.length - a.length)[0];

describe('repository layout', () => {
  it('has no import circle', () => {
    expect(circles(files)).toEqual([]);
  });

  it('every folder imports only what it may', () => {
    const breaches = files
      .filter((file) => !isTest(file))
      .flatMap((file) => {
        const rule = ruleOf(file.path);
        if (!rule) return [`${file.path}: in no folder of the layout`];
        const folder = rule.endsWith('/') ? rule : file.path;
        const allowed = [folder, ...(mayImport[rule] ?? [])];
        return file.imports
          .filter((target) => target.endsWith('.ts') || target.endsWith('.mts'))
          .filter((target) => !allowed.some((a) => under(target, a)))
          .map((target) => `${file.path} imports ${target}`);
      });
    expect(breaches).toEqual([]);
  });

  it('the platform-free parts import no Node built-in and use no Buffer or process', () => {
    const offences = files
      .filter((file) => !isTest(file) && platformFree.some((rule) => under(file.path, rule)))
      .flatMap((file) => {
        const code = file.code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
        return [
          ...file.imports
            .filter((i) => i.startsWith('node:') || i === 'busboy')
            .map((i) => `${file.path} imports ${i}`),
          ...['Buffer', 'process']
            .filter((name) => new RegExp(`(?<![.\\w])${name}\\b`).test(code))
            .map((name) => `${file.path} uses ${name}`),
        ];
      });
    expect(offences).toEqual([]);
  });
});
