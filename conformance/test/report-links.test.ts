/**
 * Every report of the suite and of the explorer (conformance.json, .junit.xml, .md; explore.json,
 * .junit.xml, .md, explore-repro.json, explore-repro.sh) is written through a temporary file and a
 * rename: a symbolic link planted at its name is refused in one line naming it, and its target is
 * left as it was.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceCommand } from '../../cli/conformance.js';
import { readCommandLine } from '../../cli/program.js';
import { ReportPathError } from '../../common/report-file.js';
import { type ExploreResult, writeExploreReports } from '../explore/index.js';
import { writeReports } from '../reporters/write-reports.js';
import type { RunResult } from '../types.js';

const dir = mkdtempSync(join(tmpdir(), 'vk-report-links-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run: RunResult = {
  ok: true,
  aborted: false,
  baseUrl: 'http://127.0.0.1:1',
  embeddedMock: false,
  targetIsMock: false,
  runPrefix: 'vk_000000_',
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  results: [],
  counts: { total: 0, pass: 0, fail: 0, warn: 0, skip: 0, observed: 0, error: 0 },
  billing: {
    remainingFreeCloneCountBefore: null,
    remainingFreeCloneCountAfter: null,
    voicesCreated: 0,
    voicesDeletedByCases: 0,
    uploads: 0,
    voicesDeleted: 0,
    voicesRemaining: 0,
    cleanupFailures: [],
  },
};

const verdict = { rule: 'session.saved-listed', section: '§4.4', severity: 'must', seen: 'x', exchange: 1 };
const explored = {
  ok: false,
  seed: 1,
  baseUrl: 'http://127.0.0.1:1',
  embeddedMock: false,
  limits: { chars: 0, uploads: 0, creations: 0, maxTimeSeconds: 1 },
  spent: { chars: 0, uploads: 0, creations: 0 },
  refused: { chars: 0, uploads: 0, creations: 0 },
  sequences: 1,
  requests: 1,
  trace: [],
  operations: {},
  found: {
    verdicts: [verdict],
    steps: [
      { step: { label: 'list', op: 'listVoices', key: 'main' }, seq: 1, status: 200, verdicts: [verdict] },
    ],
    shrinks: 0,
    shrinkCut: false,
    acceptedTextLength: 0,
  },
  cleanup: { deleted: 0, left: 0, failures: [] },
  durationMs: 1,
  keyNames: ['main'],
  coverage: [],
} as unknown as ExploreResult;

async function planted(name: string, write: (at: string) => Promise<unknown>) {
  const at = join(dir, name.replace(/\W/g, '-'));
  mkdirSync(at, { recursive: true });
  const victim = join(dir, `victim-${name}`);
  writeFileSync(victim, 'keep me');
  symlinkSync(victim, join(at, name));
  const error = await write(at).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReportPathError);
  expect((error as Error).message).toBe(
    `${join(at, name)} is a symbolic link: reports are not written through one`,
  );
  expect(readFileSync(victim, 'utf8')).toBe('keep me');
  expect(lstatSync(join(at, name)).isSymbolicLink()).toBe(true);
  expect(readdirSync(at).filter((n) => n.includes('.tmp'))).toEqual([]);
}

describe('a link at a report name is refused, never followed', () => {
  it.each(['conformance.json', 'conformance.junit.xml', 'conformance.md'])('the suite’s %s', (name) =>
    planted(name, (at) => writeReports(run, at)),
  );

  it.each(['explore.json', 'explore.junit.xml', 'explore.md', 'explore-repro.json', 'explore-repro.sh'])(
    'the explorer’s %s',
    (name) => planted(name, (at) => writeExploreReports(explored, at)),
  );

  it('a regular file at the name is replaced', async () => {
    const at = join(dir, 'plain');
    mkdirSync(at);
    writeFileSync(join(at, 'explore.md'), 'old');
    await writeExploreReports(explored, at);
    expect(readFileSync(join(at, 'explore.md'), 'utf8')).toMatch(/^# Exploration/);
  });
});

describe('from the command line: exit 3, one line naming the link', () => {
  const cli = async (argv: string[]) => {
    const lines: string[] = [];
    const code = await conformanceCommand(
      readCommandLine(['conformance', ...argv]),
      {},
      (l) => lines.push(l),
      () => undefined,
    );
    return { code, lines };
  };

  it.each([
    ['--explore', 'explore.md', ['--explore', '--seed', '1', '--max-time', '2', '--budget-chars', '100']],
    ['the suite', 'conformance.md', ['--only', 'auth.listVoices.missing-key']],
  ])(
    '%s with a link at %s',
    async (_, name, argv) => {
      const at = join(dir, `cli-${name}`);
      mkdirSync(at);
      const victim = join(dir, `cli-victim-${name}`);
      writeFileSync(victim, 'keep me');
      symlinkSync(victim, join(at, name));
      const { code, lines } = await cli([...argv, '--report-dir', at]);
      expect(code, lines.join('\n')).toBe(3);
      expect(lines.filter((l) => l.startsWith('error: '))).toEqual([
        `error: reports could not be written to ${at}: ${join(at, name)} is a symbolic link: reports are not written through one`,
      ]);
      expect(readFileSync(victim, 'utf8')).toBe('keep me');
    },
    60_000,
  );
});
