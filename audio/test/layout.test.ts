import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layout of audio (see index.ts): the engine's three folders. Who may import whom, import
// circles and the web-platform rule are checked for the whole repository in scripts/test/layout.test.ts.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = (await readdir(root, { recursive: true }))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(root, name));
const isTest = (file: string) => file.endsWith('.test.ts') || relative(root, file).startsWith('test/');
const folderOf = (file: string) => relative(root, file).split('/')[0] ?? '';

describe('audio layout', () => {
  it('holds the engine in analysis/, synthesis/ and containers/, with index.ts and types.ts at the top', () => {
    const top = files
      .filter((file) => !relative(root, file).includes('/'))
      .map((file) => relative(root, file));
    expect(top.sort()).toEqual(['index.ts', 'types.ts']);
    expect(new Set(files.filter((file) => !isTest(file)).map(folderOf))).toEqual(
      new Set(['analysis', 'synthesis', 'containers', 'index.ts', 'types.ts']),
    );
  });
});
