/** The explore flags of `voice-kit conformance`: read, refused when wrong (exit 2), and a short run end to end. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceCommand, parseCliArgs, UsageError } from '../../cli/conformance.js';
import { readCommandLine } from '../../cli/program.js';

const problemsOf = (argv: readonly string[]): readonly string[] => {
  try {
    parseCliArgs(argv, {});
    return [];
  } catch (e) {
    if (e instanceof UsageError) return e.problems;
    throw e;
  }
};

describe('conformance --explore flags', () => {
  it('reads the budgets, the time and the seed', () => {
    const r = parseCliArgs(
      ['--explore', '--budget-chars', '500', '--budget-uploads', '3', '--max-time', '9', '--seed', '1'],
      {},
    );
    expect(r.explore).toEqual({
      replay: undefined,
      budgetChars: 500,
      budgetUploads: 3,
      maxTimeSeconds: 9,
      seed: 1,
    });
    expect(parseCliArgs([], {}).explore).toBeUndefined();
    expect(parseCliArgs(['--replay', 'r.json'], {}).explore?.replay).toBe('r.json');
    expect(
      parseCliArgs(['--explore', '--seed', '4'], { VOICE_KIT_BUDGET_CHARS: '7' }).explore?.budgetChars,
    ).toBe(7);
  });

  it.each([
    [['--explore', '--seed', 'abc'], /--seed needs a whole number/],
    [['--explore', '--budget-chars', '-1'], /--budget-chars needs a whole number/],
    [['--explore', '--max-time', '0'], /--max-time needs a whole number of seconds above 0/],
    [['--budget-chars', '10'], /--budget-chars is a flag of --explore/],
    [
      ['--explore', '--budget-creations', '2'],
      /--budget-creations above 0 creates voices: it needs --allow-billable/,
    ],
  ])('%j is a usage error', (argv, message) => {
    expect(problemsOf(argv).join('\n')).toMatch(message);
  });

  it('explores the embedded mock from the command line: exit 0, the reports written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vk-explore-cli-'));
    const lines: string[] = [];
    try {
      const argv = ['conformance', '--explore', '--seed', '5', '--max-time', '3', '--budget-chars', '200'];
      const code = await conformanceCommand(
        readCommandLine([...argv, '--budget-uploads', '2', '--report-dir', dir]),
        {},
        (l) => lines.push(l),
        () => undefined,
      );
      expect(code, lines.join('\n')).toBe(0);
      expect(lines.join('\n')).toMatch(/seed 5/);
      expect((await readdir(dir)).sort()).toEqual(['explore.json', 'explore.junit.xml', 'explore.md']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it.each([['--explore']])(
    '%s against a --base-url that gives no HTTP answer names --base-url, not an option (exit 2, one line)',
    async (...mode) => {
      const server = createServer((req) => req.socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const lines: string[] = [];
      try {
        const code = await conformanceCommand(
          readCommandLine([
            'conformance',
            ...mode,
            '--base-url',
            url,
            '--api-key',
            'k',
            '--report-dir',
            tmpdir(),
          ]),
          {},
          (l) => lines.push(l),
          () => undefined,
        );
        expect(code, lines.join('\n')).toBe(2);
        expect(lines[0]).toMatch(new RegExp(`^error: --base-url ${url}: no HTTP answer`));
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
