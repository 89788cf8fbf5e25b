import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * For tests that measure what stays reachable: V8's full collection, the worker's own `gc` if it was
 * started with --expose-gc, else one reached through V8's `--expose-gc` flag set in this test process
 * (never in the library, which leaves V8's flags to whoever owns the process).
 */
export function fullGc(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own;
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  if (!gc) throw new Error('V8 collector unavailable: this test measures the heap after a full GC');
  return gc;
}
