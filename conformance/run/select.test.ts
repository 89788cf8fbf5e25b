import { describe, expect, it } from 'vitest';
import { matchesOnly, unmatchedPatterns } from '../setup/only-patterns.js';
import type { ConformanceCase } from '../toolkit/context.js';
import { orderCases, skipReason } from './select.js';

const make = (id: string, extra: Partial<ConformanceCase> = {}): ConformanceCase => ({
  id,
  section: '§4.1',
  severity: 'must',
  title: id,
  run: async () => undefined,
  ...extra,
});
const none = { keys: { main: 'k' }, allowBillable: false, include: [], targetIsMock: false } as const;

describe('case selection', () => {
  it.each([
    ['upload.extension.flac-refused', ['upload.*'], true],
    ['upload.extension.flac-refused', ['*flac*'], true],
    ['upload.extension.flac-refused', ['flac'], true],
    ['upload.extension.flac-refused', ['list.*'], false],
    ['upload.extension.flac-refused', [], true],
  ])('%s matches %j: %s', (id, patterns, expected) => {
    expect(matchesOnly(id, patterns)).toBe(expected);
  });

  it.each([
    [{ needs: { billable: true } }, /allow-billable/],
    [{ needs: { keys: ['otherOrg'] } }, /--key-other-org/],
    [{ needs: { include: ['large-upload'] } }, /--include large-upload/],
    [{ needs: { mockOnly: true } }, /mock only/],
  ] as const)('skips a case with %j', (extra, reason) => {
    expect(skipReason(make('a.b.c', extra as Partial<ConformanceCase>), none)).toMatch(reason);
  });

  it('runs a case whose needs are met', () => {
    const c = make('a.b.c', { needs: { billable: true, keys: ['noClone'] } });
    expect(
      skipReason(c, { ...none, keys: { main: 'k', noClone: 'n' }, allowBillable: true }),
    ).toBeUndefined();
  });

  it('moves quota-exhausting cases last', () => {
    const order = orderCases([make('a.rate.x', { runLast: true }), make('b.c.d'), make('e.f.g')], []);
    expect(order.map((c) => c.id)).toEqual(['b.c.d', 'e.f.g', 'a.rate.x']);
  });

  it('moves the free-use accounting first, before any other upload or creation', () => {
    const order = orderCases(
      [make('a.b.c'), make('u.free.x', { runFirst: true }), make('z.rate', { runLast: true })],
      [],
    );
    expect(order.map((c) => c.id)).toEqual(['u.free.x', 'a.b.c', 'z.rate']);
  });

  it('runs the upload and the free-use counter checks first in the whole suite', async () => {
    const { allCases } = await import('../cases/index.js');
    expect(
      orderCases(allCases, [])
        .slice(0, 2)
        .map((c) => c.id),
    ).toEqual(['upload.side-effects.no-voice-no-clone-use', 'voice-save.free-uses.counter']);
  });

  it('names the patterns that select no case (a typo must not shrink a run silently)', () => {
    const cases = [make('upload.extension.flac-refused'), make('list.page.fields')];
    expect(unmatchedPatterns(cases, ['upload.*', 'uplaod.*', 'fields', '*nothing*'])).toEqual([
      'uplaod.*',
      '*nothing*',
    ]);
  });
});
