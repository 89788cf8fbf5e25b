/**
 * The layout of the repository as a test (ARCHITECTURE.md and each folder's README say the same in
 * prose): no import circle anywhere, type-only imports and tests included; each folder imports only
 * what it may (tests may import whatever they test); the platform-free parts use no Node built-in; no
 * function of shipped code runs past 150 lines.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, longFunctions, type SourceFile, sourceFiles, under } from '../import-graph.js';

const root = join(import.meta.dirname, '..', '..');
const files = sourceFiles(root, [
  'openapi',
  'judge',
  'profile',
  'common',
  'audio',
  'mocks',
  'conformance',
  'fixtures',
  'proxy',
  'entries',
  'cli',
  'scripts',
]);
const isTest = (file: SourceFile) => file.path.endsWith('.test.ts') || file.path.split('/').includes('test');

/** What each folder may import of the repository, besides itself; the most specific rule wins. */
const mayImport: Record<string, readonly string[]> = {
  'openapi/': [],
  // The one judge of exchanges, requests and sessions: the suite, the proxy and the mock share it.
  'judge/': ['openapi/', 'audio/containers/', 'common/'],
  // A deployment's choices where the spec is silent: written by the suite and the proxy, read by the mock.
  'profile/': ['openapi/', 'judge/', 'common/'],
  // Small helpers any room may use; they use nothing of the repository.
  'common/': [],
  'mocks/config/': ['openapi/', 'common/', 'profile/'],
  'audio/types.ts': ['openapi/'],
  'audio/index.ts': ['audio/'],
  'audio/containers/': ['audio/types.ts'],
  'audio/synthesis/': ['audio/types.ts', 'openapi/'],
  'audio/analysis/': ['audio/containers/', 'audio/types.ts', 'openapi/'],
  'mocks/core/': ['audio/', 'mocks/config/', 'openapi/', 'judge/', 'profile/', 'common/multipart/'],
  'mocks/index.ts': ['mocks/core/', 'mocks/config/', 'profile/'],
  'mocks/msw.ts': ['mocks/core/'],
  'mocks/node/': ['mocks/core/', 'mocks/config/', 'openapi/', 'common/', 'profile/'],
  // The page at /__mock/: browser code that reads the control API's JSON like any script; it takes
  // the types of that JSON from the core (type-only imports, checked below: nothing of the core runs there).
  'mocks/dashboard/': [
    'mocks/core/state/request-log.ts',
    'mocks/core/control/journal-view.ts',
    'mocks/core/control/state-view.ts',
  ],
  'conformance/types.ts': [],
  'conformance/toolkit/': ['conformance/types.ts', 'judge/', 'openapi/', 'profile/'],
  'conformance/cases/': ['conformance/types.ts', 'conformance/toolkit/', 'judge/', 'openapi/'],
  'conformance/reporters/': ['conformance/types.ts', 'openapi/generated/', 'common/xml-escape.ts'],
  'conformance/setup/': [
    'conformance/types.ts',
    'conformance/toolkit/',
    'openapi/',
    'audio/',
    'mocks/',
    'fixtures/',
    'common/did-you-mean.ts',
  ],
  'conformance/run/': [
    'conformance/types.ts',
    'conformance/setup/',
    'conformance/toolkit/',
    'conformance/cases/',
    'openapi/',
    // The run's profile recorder (the cases' exchanges, read for the spec-silent points).
    'profile/',
  ],
  // --explore: sequences judged by the one judge, on the suite's setup and toolkit.
  'conformance/explore/': [
    'conformance/types.ts',
    'conformance/setup/',
    'conformance/toolkit/',
    'common/xml-escape.ts',
    'openapi/',
    'judge/',
  ],
  'conformance/index.ts': ['conformance/', 'openapi/'],
  'fixtures/': ['audio/', 'openapi/'],
  // voice-kit/node re-exports the mock's Node server and the proxy, living inside neither.
  'entries/': ['mocks/node/', 'proxy/', 'profile/'],
  'cli/': ['conformance/', 'mocks/', 'proxy/', 'common/', 'profile/'],
  'proxy/': ['openapi/', 'common/', 'audio/containers/', 'judge/', 'profile/'],
  'scripts/': [
    'openapi/',
    'judge/',
    'profile/',
    'audio/',
    'common/',
    'mocks/',
    'conformance/',
    'fixtures/',
    'cli/',
    'proxy/',
  ],
};

/** What `voice-kit` and `voice-kit/msw` load: web platform only (mocks/core/tsconfig.json checks the types). */
const platformFree = [
  'openapi/',
  'judge/',
  'profile/points.ts',
  'profile/types.ts',
  'profile/parse.ts',
  'common/did-you-mean.ts',
  'common/xml-escape.ts',
  'common/multipart/',
  'mocks/config/',
  'audio/',
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

  it('the dashboard imports only types of the kit, which its bundle leaves out', () => {
    const valueImports = files
      .filter((file) => under(file.path, 'mocks/dashboard/') && !isTest(file))
      .flatMap((file) =>
        [...file.code.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.\.\/[^']+)'/gm)].map(
          (match) => `${file.path} imports ${match[1]} as a value`,
        ),
      );
    expect(valueImports).toEqual([]);
  });

  it('no function of shipped code is longer than 150 lines (split into named steps instead)', () => {
    const shipped = files.filter((file) => !isTest(file) && !file.path.startsWith('scripts/'));
    expect(longFunctions(shipped, 150)).toEqual([]);
  });
});
