import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmSlip } from './npm-slips.js';
import { readCommandLine } from './program.js';
import { main } from './voice-kit.js';

/** What `npm start <args>` hands the CLI, and the variables npm sets, as npm 11 does (checked by hand). */
function slip(argv: string[], env: Record<string, string>) {
  const line = readCommandLine(argv);
  return npmSlip(line.command?.name ?? '', line.flags, line.strays, env);
}

describe('npm took a flag (the "--" forgotten): the command line the user meant', () => {
  it.each([
    // npm start --port 21050
    [['mock', '21050'], { npm_config_port: 'true' }, 'npm start -- --port 21050'],
    // npm start --port=21050
    [['mock'], { npm_config_port: '21050' }, 'npm start -- --port 21050'],
    // npm start --state-dir data --populate=5
    [
      ['mock', 'data'],
      { npm_config_state_dir: 'true', npm_config_populate: '5' },
      'npm start -- --state-dir data --populate 5',
    ],
    // npm start --no-cors
    [['mock'], { npm_config_cors: 'false' }, 'npm start -- --no-cors'],
  ])('npm start: %j with %j → %s', (argv, env, meant) => {
    expect(slip(argv, { npm_lifecycle_event: 'start', ...env })).toBe(
      `npm took ${meant
        .replace(/^npm start -- /, '')
        .split(' ')
        .filter((w) => w.startsWith('--'))
        .join(', ')} as its own config (the "--" is missing): did you mean: ${meant}`,
    );
  });

  it('npm run conformance --base-url URL', () => {
    expect(
      slip(['conformance', 'https://x.test'], {
        npm_lifecycle_event: 'conformance',
        npm_config_base_url: 'true',
      }),
    ).toMatch(/did you mean: npm run conformance -- --base-url https:\/\/x\.test$/);
  });

  it('a lone number where --port N was meant', () => {
    expect(slip(['mock', '21050'], {})).toBe(
      'a lone number is not read as the port: did you mean: voice-kit mock --port 21050',
    );
    expect(slip(['mock', '21050'], { npm_lifecycle_event: 'start' })).toMatch(
      /did you mean: npm start -- --port 21050$/,
    );
  });

  it('leaves a command line as meant alone, and npm configs of its own (an .npmrc include=dev)', () => {
    expect(slip(['mock', '--port', '21050'], { npm_lifecycle_event: 'start' })).toBeUndefined();
    expect(
      slip(['conformance'], { npm_lifecycle_event: 'conformance', npm_config_include: 'dev' }),
    ).toBeUndefined();
    // Outside npm, a variable alone proves nothing.
    expect(slip(['mock'], { npm_config_port: '21050' })).toBeUndefined();
  });

  it('main() exits 2 with the hint and never starts on another port', async () => {
    const lines: string[] = [];
    const code = await main(
      ['mock'],
      () => undefined,
      (l) => lines.push(l),
      { npm_lifecycle_event: 'start', npm_config_port: '21050', VOICE_KIT_PORT: '21051' },
    );
    expect(code).toBe(2);
    expect(lines[0]).toBe(
      'error: npm took --port as its own config (the "--" is missing): did you mean: npm start -- --port 21050',
    );
  });
});

describe('voice-kit --version', () => {
  it.each([[['--version']], [['-v']], [['mock', '--version']], [['conformance', '--version']]])(
    '%j prints the package version',
    async (argv) => {
      const out: string[] = [];
      expect(
        await main(
          argv,
          (l) => out.push(l),
          () => undefined,
          {},
        ),
      ).toBe(0);
      const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
      expect(out).toEqual([pkg.version]);
    },
  );
});
