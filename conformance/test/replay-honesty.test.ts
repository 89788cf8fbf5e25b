/**
 * `--replay` tells "fixed" from "could not reproduce": a malformed reproduction is exit 2 in one line;
 * a reproduction whose recorded state no longer holds (the free uses were spent) is exit 4 naming the
 * precondition, never a PASS; a connection the deployment resets is exit 5, named, with the replay's
 * reports written. All against loopback deployments.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { conformanceCommand } from '../../cli/conformance.js';
import { readCommandLine } from '../../cli/program.js';

const dir = mkdtempSync(join(tmpdir(), 'vk-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const listAnswer = (free: number) =>
  JSON.stringify({
    error_code: 0,
    error_message: '',
    succeed: true,
    data: { list: [], has_more: false, total: 0, remainingFreeCloneCount: free },
  });

/** A loopback deployment: `handler(req, res, n)` for the n-th list request (1-based). */
async function deployment(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let lists = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (!req.url?.startsWith('/v1/voice/list')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error_code: 10004, error_message: 'no', succeed: false, data: null }));
    }
    handler(req, res, ++lists);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answering =
  (free: number) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(listAnswer(free));
  };

const verdict = {
  rule: 'session.free-uses',
  kind: 'session',
  severity: 'must',
  section: '§4.2',
  operation: 'listVoices',
  exchange: 2,
  seen: 'remainingFreeCloneCount went down with no save',
};
const repro = {
  format: 'voice-kit-explore-repro/2',
  seed: 1,
  baseUrl: 'http://127.0.0.1:1',
  verdicts: [verdict],
  acceptedTextLength: 0,
  steps: [
    { label: 'list the first page (main)', op: 'listVoices', key: 'main' },
    { label: 'walk the list: first page (main)', op: 'listVoices', key: 'main' },
  ],
  preconditions: { keys: ['main'], remainingFreeCloneCount: 3, voices: { count: 0, exact: true } },
};

async function replay(file: string, baseUrl?: string, reportDir = join(dir, 'reports')) {
  const lines: string[] = [];
  const argv = ['conformance', '--replay', file, '--report-dir', reportDir];
  if (baseUrl) argv.push('--base-url', baseUrl, '--api-key', 'k');
  const code = await conformanceCommand(
    readCommandLine(argv),
    {},
    (l) => lines.push(l),
    () => undefined,
  );
  return { code, lines };
}

const fileOf = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('a malformed reproduction: exit 2, one line', () => {
  const json = JSON.stringify(repro);
  it.each([
    ['a __proto__ key', json.replace('"seed":1', '"__proto__":{"polluted":true},"seed":1')],
    ['a null step', JSON.stringify({ ...repro, steps: [null] })],
    ['a string step', JSON.stringify({ ...repro, steps: ['listVoices'] })],
    ['null verdicts', JSON.stringify({ ...repro, verdicts: null })],
    ['an unknown role', JSON.stringify({ ...repro, steps: [{ ...repro.steps[0], key: 'constructor' }] })],
    [
      'a step taking a value from a later one',
      JSON.stringify({
        ...repro,
        steps: [{ ...repro.steps[0], cursor: { from: 3, field: 'next_voice_id' } }],
      }),
    ],
    ['not JSON', '{"format": '],
    // V8 quotes the text around a syntax error: line breaks and escape sequences must not reach the terminal.
    ['not JSON, across lines', 'nul\n\n\u001b[31mred\n'],
  ])('%s', async (name, text) => {
    const { code, lines } = await replay(fileOf(`${name.replace(/\W/g, '-')}.json`, text));
    expect(code, lines.join('\n')).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --replay .*\.json: /);
    expect(lines[0]).not.toMatch(/TypeError|\n\s+at /);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).not.toContain('\u001b');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('preconditions', () => {
  it('the free uses were spent since: exit 4 and one line naming remainingFreeCloneCount, never PASS', async () => {
    const url = await deployment(answering(0));
    const { code, lines } = await replay(fileOf('drift.json', JSON.stringify(repro)), url);
    expect(code, lines.join('\n')).toBe(4);
    const verdictLine = lines.find((l) => l.startsWith('NOT REPRODUCED'));
    expect(verdictLine).toMatch(
      /precondition not met: remainingFreeCloneCount is 0 now; the reproduction started from 3/,
    );
    expect(lines.join('\n')).not.toMatch(/PASS/);
  }, 30_000);

  it('the same state as recorded: the steps run and the replay judges them (here: no longer deviates, exit 0)', async () => {
    const url = await deployment(answering(3));
    const { code, lines } = await replay(fileOf('same.json', JSON.stringify(repro)), url);
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContain('PASS: the reproduction no longer deviates');
  }, 30_000);

  it('a key the reproduction uses is not given: exit 4 naming its flag', async () => {
    const url = await deployment(answering(3));
    const other = {
      ...repro,
      steps: [...repro.steps, { label: 'list (otherOrg)', op: 'listVoices', key: 'otherOrg' }],
      preconditions: { ...repro.preconditions, keys: ['main', 'otherOrg'] },
    };
    const { code, lines } = await replay(fileOf('keys.json', JSON.stringify(other)), url);
    expect(code, lines.join('\n')).toBe(4);
    expect(lines.join('\n')).toMatch(/--key-other-org/);
  }, 30_000);
});

describe('a network error during the replay', () => {
  it('a reset connection: exit 5, named in one line, the reports written', async () => {
    // The preflight and the precondition's walk are answered; the first step's request is reset.
    const url = await deployment((req, res, n) => (n <= 2 ? answering(3)(req, res) : req.socket.destroy()));
    const reportDir = join(dir, 'reset-reports');
    const { code, lines } = await replay(fileOf('reset.json', JSON.stringify(repro)), url, reportDir);
    expect(code, lines.join('\n')).toBe(5);
    expect(lines.filter((l) => l.startsWith('NO ANSWER: '))).toHaveLength(1);
    expect(lines.join('\n')).toMatch(
      /NO ANSWER: step 1 \(list the first page \(main\)\): no answer: .*(reset|socket|other side closed|terminated)/i,
    );
    expect(readdirSync(reportDir).sort()).toEqual(['replay.json', 'replay.md']);
  }, 30_000);
});
