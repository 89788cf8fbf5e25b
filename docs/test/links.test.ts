// Every relative link of the Markdown pages must work in a clone, on the repository host (GitHub's
// relative links and heading anchors) and in the npm tarball: its target exists, stays inside the
// repository, is packed (but for the pages kept out of the package on purpose), and its #anchor is a
// heading of the target page.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headings, links } from '../../scripts/markdown.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = [
  'README.md',
  'ARCHITECTURE.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The files `npm pack` puts in the tarball, as repository paths (no scripts run). */
/**
 * The pages for working on the kit, not with it (the lab's performance journal, the maintainers' notes,
 * the layout): package.json "files" leaves them out. A link to one works in a clone and on the
 * repository host, where the npm registry's page of the README sends it too.
 */
const repositoryOnly: ReadonlySet<string> = new Set([
  'ARCHITECTURE.md',
  'docs/development.md',
  'docs/performance.md',
]);

const packed: ReadonlySet<string> = new Set(
  (
    JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { files: { path: string }[] }[]
  )[0]?.files.map((f) => f.path) ?? [],
);

const anchorsOf = new Map<string, Set<string>>();
function anchors(page: string): Set<string> {
  let found = anchorsOf.get(page);
  if (!found) {
    found = new Set(headings(readFileSync(join(root, page), 'utf8')).map((h) => h.slug));
    anchorsOf.set(page, found);
  }
  return found;
}

/** What is wrong with one link of `page`, or undefined. */
function problem(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return 'leaves the repository (an absolute URL)';
  if (target.startsWith('/')) return 'is absolute to the host; write it relative to the page';
  const [path = '', anchor] = target.split('#', 2);
  const file =
    path === ''
      ? page
      : normalize(join(dirname(page), decodeURIComponent(path)))
          .split(sep)
          .join('/');
  if (file.startsWith('../') || file === '..') return `leaves the repository (${file})`;
  if (!existsSync(join(root, file))) return `points at ${file}, which does not exist`;
  const isDir = statSync(join(root, file)).isDirectory();
  const inTarball = isDir ? [...packed].some((p) => p.startsWith(`${file}/`)) : packed.has(file);
  if (!inTarball && !repositoryOnly.has(file))
    return `points at ${file}, which the npm package does not hold (package.json "files")`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `has an anchor (#${anchor}) into ${file}, which is not a Markdown page`;
  if (!anchors(file).has(anchor)) return `has an anchor #${anchor} that is no heading of ${file}`;
  return undefined;
}

describe('Markdown links', () => {
  it('the npm package holds every page but those for working on the kit, the licence and the OpenAPI description', () => {
    for (const file of [...pages, 'LICENSE', 'openapi/voice-service.yaml'])
      expect(packed.has(file), file).toBe(!repositoryOnly.has(file));
  });

  it.each(pages)(
    '%s: every relative link has its target and anchor, in a clone and in the package',
    (page) => {
      const found = links(readFileSync(join(root, page), 'utf8'))
        .map(({ target, line }) => ({ line, target, problem: problem(page, target) }))
        .filter((l) => l.problem !== undefined)
        .map((l) => `${page}:${l.line} ${l.target} ${l.problem}`);
      expect(found).toEqual([]);
    },
  );

  it('the link checker refuses what it should', () => {
    expect(problem('README.md', 'docs/mock.md')).toBeUndefined();
    expect(problem('docs/mock.md', '#the-mock')).toBeUndefined();
    expect(problem('docs/mock.md', '../README.md#voice-kit')).toBeUndefined();
    expect(problem('README.md', ['..', 'shared', 'spec', 'x.md'].join('/'))).toMatch(/leaves the repository/);
    expect(problem('README.md', 'https://example.org/')).toMatch(/absolute URL/);
    expect(problem('README.md', 'docs/nothing.md')).toMatch(/does not exist/);
    expect(problem('README.md', 'docs/mock.md#no-such-heading')).toMatch(/no heading/);
    expect(problem('README.md', 'mocks/node/README.md')).toMatch(/does not hold/);
    expect(problem('README.md', 'openapi/voice-service.yaml#L1')).toMatch(/not a Markdown page/);
  });

  it('nothing in the repository points at the spec outside it', () => {
    const outside = ['shared', 'spec'].join('/');
    const folders = ['openapi', 'mocks', 'conformance', 'fixtures', 'cli', 'scripts', 'docs'];
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (name === 'node_modules' || name === 'files') return [];
        return statSync(path).isDirectory()
          ? walk(path)
          : /\.(ts|mts|mjs|md|yaml|json)$/.test(name)
            ? [path]
            : [];
      });
    const files = [...pages.map((p) => join(root, p)), ...folders.flatMap((f) => walk(join(root, f)))];
    const hits = files.filter((f) => readFileSync(f, 'utf8').includes(outside)).map((f) => relative(root, f));
    expect(hits).toEqual([]);
  });
});
