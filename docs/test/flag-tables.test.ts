// Each command's flag table in the docs names exactly the flags its `--help` prints: a flag added to
// the CLI without a docs row (as `--control-token` once was), or a row left for a flag that is gone,
// fails here instead of being found by a reader.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../cli/program.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The long flags a help text lists (`  --port <port>   …`, `  -h, --help   …`). */
function helpFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z-]*)/gm)].map((m) => m[1] ?? '').sort();
}

/** The flags in the first cell of the rows of the first table under `heading` of a page. */
function tableFlags(page: string, heading: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const from = text.indexOf(`\n${heading}\n`);
  if (from < 0) throw new Error(`${page} has no heading "${heading}"`);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  const flags = lines
    .slice(start, end)
    .map((line) => /^\|\s*`--([a-z][a-z-]*)/.exec(line)?.[1])
    .filter((flag): flag is string => flag !== undefined);
  return [...new Set(flags)].sort();
}

describe('the flag tables of the docs match --help', () => {
  it.each([
    ['mock', 'docs/mock.md', '## Start it'],
    ['proxy', 'docs/proxy.md', '## Flags'],
    ['conformance', 'docs/conformance.md', '## Run it'],
  ])('voice-kit %s --help and the table of %s', (command, page, heading) => {
    const documented = tableFlags(page, heading);
    // --help and --version are the same everywhere; a page may leave their rows out.
    const printed = helpFlags(helpText(command)).filter(
      (flag) => (flag !== 'help' && flag !== 'version') || documented.includes(flag),
    );
    expect(documented).toEqual(printed);
  });

  it('reads flags from help texts and tables as they are written', () => {
    expect(helpFlags('  --port <port>   Port\n  -h, --help   Print\n  not --a-flag')).toEqual([
      'help',
      'port',
    ]);
    expect(tableFlags('docs/mock.md', '## Start it')).toContain('state-dir');
  });
});
