/**
 * The repository's import graph, for the layout test: every import, export-from and import() of every
 * TypeScript file, type-only ones included, as TypeScript's own pre-processor reads them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One file: its path from the root, what it imports (repository paths, or package names), its code. */
export interface SourceFile {
  readonly path: string;
  readonly imports: readonly string[];
  readonly code: string;
}

const skipped = new Set(['node_modules', 'dist', '.git', 'coverage', 'reports']);

/** Every .ts file under `dirs` (paths relative to `root`), with what it imports. */
export function sourceFiles(root: string, dirs: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name)) walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const code = readFileSync(join(root, path), 'utf8');
        const imports = ts
          .preProcessFile(code, true, true)
          .importedFiles.map(({ fileName }) =>
            fileName.startsWith('.')
              ? relative(root, resolve(root, dirname(path), fileName)).replace(/\.(m?)js$/, '.$1ts')
              : fileName,
          );
        files.push({ path, imports, code });
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}

/** Each import circle once, as the files around it (`a.ts > b.ts > a.ts`). */
export function circles(files: readonly SourceFile[]): string[] {
  const graph = new Map(files.map((file) => [file.path, file.imports.filter((i) => i.endsWith('.ts'))]));
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' > '));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** A file under a folder rule (`dir/` for a folder, else one file). */
export const under = (path: string, rule: string): boolean =>
  rule.endsWith('/') ? path.startsWith(rule) : path === rule;

/** Functions longer than `maxLines` lines (declarations, methods, arrows with a body), as `path:line name (n lines)`. */
export function longFunctions(files: readonly SourceFile[], maxLines: number): string[] {
  const found: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file.path, file.code, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        if (last - first + 1 > maxLines)
          found.push(`${file.path}:${first + 1} ${name} (${last - first + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
