import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layout of mocks/audio (see index.ts): who may import whom, no import cycles (type-only imports
// included), and nothing but the web platform outside test files, so that the engine bundles for a browser.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = (await readdir(root, { recursive: true }))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(root, name));
const isTest = (file: string) => file.endsWith('.test.ts') || relative(root, file).startsWith('test/');
const folderOf = (file: string) => relative(root, file).split('/')[0] ?? '';

/** Every import and export-from of a file, static, type-only and import(), as written. */
async function specifiers(file: string): Promise<string[]> {
  const info = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

const resolveTs = (file: string, specifier: string) =>
  resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));

describe('mocks/audio layout', () => {
  it('holds the engine in analysis/, synthesis/ and containers/, with index.ts and types.ts at the top', () => {
    const top = files
      .filter((file) => !relative(root, file).includes('/'))
      .map((file) => relative(root, file));
    expect(top.sort()).toEqual(['index.ts', 'types.ts']);
    expect(new Set(files.filter((file) => !isTest(file)).map(folderOf))).toEqual(
      new Set(['analysis', 'synthesis', 'containers', 'index.ts', 'types.ts']),
    );
  });

  it('keeps each folder to the imports it may make', async () => {
    const offences: string[] = [];
    for (const file of files.filter((candidate) => !isTest(candidate))) {
      const folder = folderOf(file);
      for (const specifier of await specifiers(file)) {
        const local = specifier.startsWith('.');
        const target = local ? folderOf(resolveTs(file, specifier)) : specifier;
        const allowed =
          folder === 'containers'
            ? local && (target === 'containers' || target === 'types.ts')
            : folder === 'synthesis'
              ? target !== 'analysis' && target !== 'containers'
              : folder === 'analysis'
                ? target !== 'synthesis'
                : true;
        if (!allowed) offences.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('uses the web platform only outside tests: no node: modules, Buffer or process', async () => {
    const offences: string[] = [];
    for (const file of files.filter((candidate) => !isTest(candidate))) {
      const source = await readFile(file, 'utf8');
      for (const specifier of await specifiers(file)) {
        if (specifier.startsWith('node:')) offences.push(`${relative(root, file)} imports ${specifier}`);
      }
      // Comments may name them; code may not.
      const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      for (const name of ['Buffer', 'process']) {
        if (new RegExp(`\\b${name}\\b`).test(code)) offences.push(`${relative(root, file)} uses ${name}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('has no import cycle, type-only imports and tests included', async () => {
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const local = (await specifiers(file)).filter((specifier) => specifier.startsWith('.'));
      graph.set(
        file,
        local.map((specifier) => resolveTs(file, specifier)).filter((target) => files.includes(target)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') {
          cycles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(root, f)).join(' → '));
        } else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
