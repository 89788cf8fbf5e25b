import { afterEach, describe, expect, it, vi } from 'vitest';
import { withoutSqliteWarning } from './sqlite.js';

describe('withoutSqliteWarning', () => {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
  afterEach(() => {
    process.off('warning', listener);
    seen.length = 0;
  });

  it("drops only SQLite's ExperimentalWarning, in each form Node emits it, and lets others through", async () => {
    process.on('warning', listener);
    await withoutSqliteWarning(async () => {
      process.emitWarning(
        'SQLite is an experimental feature and might change at any time',
        'ExperimentalWarning',
      );
      process.emitWarning('SQLite is an experimental feature', { type: 'ExperimentalWarning' });
      process.emitWarning('Fetch is an experimental feature', 'ExperimentalWarning');
      process.emitWarning('something deprecated about sqlite', 'DeprecationWarning');
    });
    // Outside the call, SQLite's warning is no longer filtered.
    process.emitWarning('SQLite later', 'ExperimentalWarning');
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen).toEqual([
      'ExperimentalWarning: Fetch is an experimental feature',
      'DeprecationWarning: something deprecated about sqlite',
      'ExperimentalWarning: SQLite later',
    ]);
  });
});
