// Every ```ts block of docs/*.md type-checks against the repository's own packages, as a user would
// paste it: msw 3 and vitest from node_modules, the kit's entries as `voice-kit/...` (mapped to their
// sources below, the `exports` map of package.json). A block may be left out only with the marker
// `<!-- snippet: partial — why -->` on the line before its fence, and the reason is required.
// docs/typed-client.md is left out whole: its blocks are excerpts of docs/examples/typed-client.ts,
// which tsc checks with the repository and typed-client.test.ts runs and compares verbatim.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const docs = join(root, 'docs');
const excerptPages = new Set(['typed-client.md']);

/** The package's entries (package.json "exports"), as sources. */
const entries: Record<string, string> = {
  'voice-kit': 'mocks/index.ts',
  'voice-kit/msw': 'mocks/msw.ts',
  'voice-kit/node': 'entries/node.ts',
  'voice-kit/conformance': 'conformance/index.ts',
  'voice-kit/fixtures': 'fixtures/index.ts',
  'voice-kit/contract': 'openapi/contract.ts',
  'voice-kit/types': 'openapi/generated/voice-service.ts',
};

interface Snippet {
  readonly page: string;
  readonly line: number;
  readonly code: string;
  /** The reason given with the partial marker; undefined for a block that must compile. */
  readonly partial: string | undefined;
}

/** Every ```ts block of a page, with the line of its fence and a partial marker before it, if any. */
function snippetsOf(page: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```ts') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    const marker = /^<!-- snippet: partial — (.*\S) -->$/.exec(lines[i - 1]?.trim() ?? '');
    found.push({ page, line: i + 1, code: lines.slice(i + 1, end).join('\n'), partial: marker?.[1] });
    i = end;
  }
  return found;
}

const pages = readdirSync(docs).filter((f) => f.endsWith('.md') && !excerptPages.has(f));
const snippets = pages.flatMap((page) => snippetsOf(page, readFileSync(join(docs, page), 'utf8')));

/** The type errors of `files` (virtual paths under docs/, module code each), as `page:line: message`. */
function typeErrors(files: ReadonlyMap<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    allowImportingTsExtensions: true,
    paths: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [join(root, v)]])),
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files.get(f) ?? read(f);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => files.has(f) || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(f);
    return text === undefined ? getSource(f, lang, ...rest) : ts.createSourceFile(f, text, lang);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  // The diagnostics of the snippets' own files only: the checker then reads of the kit's sources just
  // what the snippets use, instead of checking every file of the program (tsc checks those).
  return [...files.keys()]
    .flatMap((name) => {
      const file = program.getSourceFile(name);
      return file ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : [];
    })
    .map((d) => {
      const { line } = d.file?.getLineAndCharacterOfPosition(d.start ?? 0) ?? { line: 0 };
      return `${d.file?.fileName.replace(`${docs}/`, '')}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

describe('the TypeScript snippets of the docs', () => {
  it('finds the blocks, and a partial marker only with its reason', () => {
    expect(snippets.length).toBeGreaterThan(5);
    const text =
      '<!-- snippet: partial — needs the app -->\n```ts\nfoo();\n```\n\n```ts\nconst a = 1;\n```\n';
    expect(snippetsOf('x.md', text).map((s) => [s.line, s.partial])).toEqual([
      [2, 'needs the app'],
      [6, undefined],
    ]);
  });

  it('every one compiles against msw 3, vitest, TypeScript and the kit', () => {
    // One module per block, named after its page and line so an error points at the doc.
    const files = new Map(
      snippets
        .filter((s) => s.partial === undefined)
        .map((s) => [join(docs, `${s.page}.line-${s.line}.mts`), `${s.code}\nexport {};\n`] as const),
    );
    expect(typeErrors(files)).toEqual([]);
  }, 120_000);
});
