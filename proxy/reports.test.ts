import { describe, expect, it } from 'vitest';
import { proxyMarkdown } from './reports.js';
import type { ExchangeRecord, ProxyReport, Violation } from './types.js';

const exchange = (id: number): ExchangeRecord => ({
  id,
  startedAt: '2026-01-01T00:00:00.000Z',
  method: 'GET',
  path: '/v1/voice/list',
  operationId: 'listVoices',
  status: 200,
  contentType: 'application/json',
  requestBytes: 0,
  responseBytes: 10,
  chunks: 1,
  ttfbMs: 1,
  durationMs: 1,
  audioSeconds: null,
  aborted: null,
  upstreamError: null,
  requestProblems: [],
  notes: [],
  violations: 0,
});
const violation = (rule: string, severity: 'must' | 'should', id: number): Violation => ({
  rule,
  severity,
  section: rule === 'upload.file-name' ? '§2.2' : '§4.3, §8',
  operationId: 'listVoices',
  operation: 'GET /v1/voice/list',
  method: 'GET',
  path: '/v1/voice/list',
  seen: `seen at ${id}`,
  exchange: id,
});

/** A session like the newcomer's against Prism: 5,000 exchanges, violations spread over them. */
function session(): ProxyReport {
  const violations = [
    violation('upload.file-name', 'should', 3),
    ...Array.from({ length: 24 }, (_, i) => violation('list.page-size', 'must', 10 + i * 100)),
    violation('envelope.shape', 'must', 4548),
    violation('upload.file-name', 'should', 4999),
  ];
  return {
    upstream: 'http://127.0.0.1:1/',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    ok: false,
    upstreamFailed: false,
    maxUpstreamErrors: 0,
    counts: { exchanges: 5000, violations: violations.length, must: 25, should: 2, upstreamErrors: 0 },
    exchanges: Array.from({ length: 5000 }, (_, i) => exchange(i + 1)),
    violations,
  };
}

describe('proxy.md', () => {
  const md = proxyMarkdown(session());

  it('sums the violations up by rule: must first, then by count, with severity, §, count and first exchange', () => {
    const table = md.slice(md.indexOf('## Violations by rule'), md.indexOf('## Violations\n'));
    expect(
      table
        .split('\n')
        .filter((l) => l.startsWith('| ['))
        .map((l) => l.replace(/\]\(#[^)]*\)/, ']')),
    ).toEqual([
      '| [`list.page-size`] | must | §4.3, §8 | 24 | 10 |',
      '| [`envelope.shape`] | must | §4.3, §8 | 1 | 4548 |',
      '| [`upload.file-name`] | should | §2.2 | 2 | 3 |',
    ]);
  });

  it('lists every violation under its rule, past the 1,000 rows of the exchanges table', () => {
    const list = md.slice(md.indexOf('## Violations\n'), md.indexOf('## Requests outside'));
    expect(list.match(/^### .*/gm)).toEqual([
      '### list.page-size',
      '### envelope.shape',
      '### upload.file-name',
    ]);
    expect(list.match(/^\| \d+ \|/gm)).toHaveLength(27);
    expect(list).toContain('| 4548 | GET /v1/voice/list (listVoices) | seen at 4548 |');
    expect(md).toContain('(4000 more in proxy.json)');
  });
});
