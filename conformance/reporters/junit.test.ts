import { describe, expect, it } from 'vitest';
import type { CaseResult, RunResult } from '../types.js';
import { junitReport } from './junit.js';
import { markdownReport } from './markdown.js';

const base = { findings: [], observations: [], notes: [], durationMs: 5 } as const;
const results: CaseResult[] = [
  {
    ...base,
    id: 'upload.a.b',
    section: '§4.1, §7.1',
    severity: 'must',
    title: 'a <b> & "c"',
    outcome: 'pass',
  },
  {
    ...base,
    id: 'upload.a.c',
    section: '§4.1',
    severity: 'must',
    title: 't',
    outcome: 'fail',
    findings: [{ level: 'must', message: 'HTTP 200 & \u0001 <x>' }],
  },
  {
    ...base,
    id: 'list.a.b',
    section: '§4.3',
    severity: 'should',
    title: 't',
    outcome: 'skip',
    skipReason: 'needs --allow-billable',
  },
  {
    ...base,
    id: 'list.a.c',
    section: '§4.3',
    severity: 'observe',
    title: 't',
    outcome: 'observed',
    openQuestion: 'page-size-out-of-range',
    observations: [{ question: 'page-size-out-of-range', value: 'page_size=0: HTTP 400 | x' }],
  },
];
const run: RunResult = {
  ok: false,
  aborted: false,
  baseUrl: 'http://x',
  embeddedMock: false,
  targetIsMock: false,
  runPrefix: 'vk_000000_',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 10,
  results,
  counts: { total: 4, pass: 1, fail: 1, warn: 0, skip: 1, observed: 1, error: 0 },
  billing: {
    remainingFreeCloneCountBefore: 3,
    remainingFreeCloneCountAfter: 3,
    voicesCreated: 0,
    uploads: 0,
    voicesDeletedByCases: 0,
    voicesDeleted: 0,
    voicesRemaining: 0,
    cleanupFailures: [],
  },
};

describe('reports', () => {
  it('renders one testsuite per section with failure and skipped elements', () => {
    const xml = junitReport(run);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml.match(/<testsuite /g)?.length).toBe(2);
    expect(xml).toContain('<testsuite name="§4.1" tests="2" failures="1" errors="0" skipped="0"');
    expect(xml).toContain('<skipped message="needs --allow-billable"/>');
    expect(xml).toContain('<property name="severity" value="must"/>');
    expect(xml).toContain('HTTP 200 &amp;  &lt;x&gt;');
    expect(xml).not.toContain('<b>');
    expect(xml).not.toContain(String.fromCharCode(1));
  });

  it('builds the "where the spec is silent" table from observations', () => {
    const md = markdownReport(run);
    expect(md).toContain('| `page-size-out-of-range` | §4.3 |');
    expect(md).toContain('page_size=0: HTTP 400 \\| x');
    expect(md).toContain('**FAIL**');
    expect(md).toContain('`docs/spec-sections.md` of voice-kit');
  });

  it('puts the failures first, then the warnings, before the per-section tables', () => {
    const warned: CaseResult = {
      ...base,
      id: 'list.a.w',
      section: '§4.3',
      severity: 'should',
      title: 'w',
      outcome: 'warn',
      findings: [{ level: 'should', message: 'total missing' }],
    };
    const md = markdownReport({ ...run, results: [...results, warned] });
    const failures = md.indexOf('## Failures (1)');
    const warnings = md.indexOf('## Warnings (1)');
    const bySection = md.indexOf('## Results by section');
    expect(failures).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(failures);
    expect(bySection).toBeGreaterThan(warnings);
    expect(md.slice(failures, warnings)).toContain('| `upload.a.c` — t | §4.1 | must | **FAIL** | HTTP 200');
    expect(md.slice(warnings, bySection)).toContain('(should) total missing');
    // A clean run has neither section.
    const clean = markdownReport({ ...run, results: results.filter((r) => r.outcome !== 'fail') });
    expect(clean).not.toMatch(/## Failures|## Warnings/);
  });
});
