import { afterEach, describe, expect, it } from 'vitest';
import { withoutSqliteWarning } from './sqlite.js';

describe('withoutSqliteWarning', () => {
  const original = process.emitWarning;
  afterEach(() => {
    process.emitWarning = original;
  });

  it("drops only SQLite's ExperimentalWarning, in each form Node emits it, and lets others through", async () => {
    // A recorder in place of Node's emitWarning: what passes the filter is recorded, not printed.
    const seen: string[] = [];
    process.emitWarning = ((warning: string | Error, options?: string | { type?: string }) => {
      const type = typeof options === 'string' ? options : options?.type;
      seen.push(`${type}: ${typeof warning === 'string' ? warning : warning.message}`);
    }) as typeof process.emitWarning;
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
    expect(seen).toEqual([
      'ExperimentalWarning: Fetch is an experimental feature',
      'DeprecationWarning: something deprecated about sqlite',
      'ExperimentalWarning: SQLite later',
    ]);
  });
});
