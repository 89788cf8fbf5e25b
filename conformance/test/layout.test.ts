/**
 * The layout of conformance/ and cli/ as a test: no import circle (type-only imports count too), and
 * each folder imports only what its header says it may. Tests are left out of the folder rules: a
 * test may import whatever it tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => !f.split('/').includes('test'));
}

/** The repository files a file imports: static, dynamic, re-exports and type-only alike. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    normalize(join(dirname(file), m[1] as string)).replace(/\.js$/, '.ts'),
  );
}

const files = [...sources('conformance'), ...sources('cli')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** Where each folder may import from (besides itself and packages); `openapi/`... are repository folders. */
const allowed: Record<string, readonly string[]> = {
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
  'conformance/index.ts': ['conformance/'],
  'cli/': ['conformance/', 'mocks/'],
};

describe('conformance/ and cli/ layout', () => {
  it('has no import circle', () => {
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        circles.push([...path.slice(path.indexOf(file)), file].join(' > '));
        return;
      }
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('every folder imports only what it may', () => {
    const breaches = files.flatMap((file) => {
      const area = Object.keys(allowed).find((a) => file === a || (a.endsWith('/') && file.startsWith(a)));
      if (!area) return [`${file}: in no folder of the layout`];
      const ok = [area, ...(allowed[area] ?? [])];
      return (graph.get(file) ?? [])
        .filter((target) => !ok.some((a) => target === a || (a.endsWith('/') && target.startsWith(a))))
        .map((target) => `${file} imports ${target}`);
    });
    expect(breaches).toEqual([]);
  });
});
