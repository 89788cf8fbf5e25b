/**
 * The layout of the repository as a test (ARCHITECTURE.md and each folder's README say the same in
 * prose): no import circle anywhere, type-only imports and tests included; each folder imports only
 * what it may (tests may import whatever they test); the platform-free parts use no Node built-in; no
 * function of shipped code runs past 150 lines; nothing a public entry loads tunes the runtime.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, longFunctions, type SourceFile, sourceFiles, under } from '../import-graph.js';

const root = join(import.meta.dirname, '..', '..');
const files = sourceFiles(root, [
  'openapi',
  'judge',
  'oracle',
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
  // The mock as the differential oracle of a deployment's traffic: the explorer, the suite and the proxy use it.
  'oracle/': ['judge/', 'profile/', 'openapi/', 'mocks/core/', 'mocks/config/'],
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
  // common/secrets.ts: the one rule of what the journal masks (the proxy's HAR and reports use it too).
  'mocks/core/': [
    'audio/',
    'mocks/config/',
    'openapi/',
    'judge/',
    'profile/',
    'common/secrets.ts',
    'common/multipart/',
  ],
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
  'conformance/toolkit/': ['conformance/types.ts', 'judge/', 'openapi/', 'profile/', 'oracle/'],
  'conformance/cases/': ['conformance/types.ts', 'conformance/toolkit/', 'judge/', 'openapi/'],
  'conformance/reporters/': [
    'conformance/types.ts',
    'openapi/generated/',
    'common/xml-escape.ts',
    'common/report-file.ts',
  ],
  'conformance/setup/': [
    'conformance/types.ts',
    'conformance/toolkit/',
    'openapi/',
    'audio/',
    'mocks/',
    'fixtures/',
    'common/did-you-mean.ts',
    'common/header-names.ts',
    'common/version-prefix.ts',
    'common/path-shown.ts',
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
    'common/report-file.ts',
    'common/one-line.ts',
    'openapi/',
    'judge/',
    'oracle/',
  ],
  'conformance/index.ts': ['conformance/', 'openapi/'],
  'fixtures/': ['audio/', 'openapi/', 'common/package-folder.ts'],
  // voice-kit/node re-exports the mock's Node server and the proxy, living inside neither.
  'entries/': ['mocks/node/', 'proxy/', 'profile/'],
  'cli/': ['conformance/', 'mocks/', 'proxy/', 'common/', 'profile/'],
  'proxy/': ['openapi/', 'common/', 'audio/containers/', 'judge/', 'profile/', 'oracle/'],
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
  'oracle/',
  'profile/points.ts',
  'profile/types.ts',
  'profile/parse.ts',
  'common/did-you-mean.ts',
  'common/xml-escape.ts',
  'common/header-names.ts',
  'common/json-depth.ts',
  'common/secrets.ts',
  'common/multipart/',
  'common/one-line.ts',
  'mocks/config/',
  'audio/',
  'mocks/core/',
  'mocks/index.ts',
  'mocks/msw.ts',
  'mocks/dashboard/',
];

/** The source of each code entry of package.json's `exports` (dist/x.js is built from x.ts). */
const publicEntries: string[] = Object.values(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>,
)
  .filter((target): target is { default: string } => typeof target === 'object' && target !== null)
  .map((target) => target.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));

/** Every file a public entry loads, itself included (static and dynamic imports, type-only ones too). */
function reachable(from: readonly string[]): SourceFile[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const seen = new Set<string>();
  const queue = [...from];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    const file = byPath.get(path);
    if (!file || seen.has(path)) continue;
    seen.add(path);
    queue.push(...file.imports.filter((target) => target.endsWith('.ts')));
  }
  return [...seen].map((path) => byPath.get(path) as SourceFile);
}

/**
 * Process-wide tuning a library must leave to whoever owns the process: V8 flags set at run time, forced
 * collections, a tick entry held to keep V8's hidden classes.
 */
const runtimeTuning: readonly [string, RegExp][] = [
  ['sets V8 flags (setFlagsFromString)', /\bsetFlagsFromString\b/],
  ['names --expose-gc', /--expose[-_]gc/],
  ['forces a collection (gc()', /(?<![.\w])gc\s*\?*\.?\(/],
  ['keeps a tick entry (executionAsyncResource)', /\bexecutionAsyncResource\b/],
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

  it('no file a public entry loads sets V8 flags, forces a collection or keeps a tick entry', () => {
    const loaded = reachable(publicEntries);
    expect(publicEntries).toContain('entries/node.ts');
    expect(loaded.map((file) => file.path)).toContain('proxy/start-proxy.ts');
    const offences = loaded.flatMap((file) => {
      const code = file.code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      return runtimeTuning
        .filter(([, pattern]) => pattern.test(code))
        .map(([what]) => `${file.path} ${what}`);
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
