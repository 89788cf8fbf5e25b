import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc` with the options V8 takes (`type`, `execution`, `flavor`). */
export type V8Collect = (options?: {
  type?: 'minor' | 'major';
  execution?: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

let collect: V8Collect | null | undefined;

/**
 * V8's collector, or null where it cannot be had: the process's own `gc` if it was started with
 * `--expose-gc`, else one reached through V8's documented `--expose-gc` flag set at run time, in a
 * context of its own (the user's global gets no `gc`). Asked for once, then kept.
 *
 * @example
 * v8Collector()?.({ type: 'minor' }); // a scavenge, ~1 ms
 */
export function v8Collector(): V8Collect | null {
  if (collect !== undefined) return collect;
  try {
    const existing = (globalThis as { gc?: V8Collect }).gc;
    if (existing) collect = existing;
    else {
      setFlagsFromString('--expose-gc');
      collect = (runInNewContext('gc') as V8Collect | undefined) ?? null;
    }
  } catch {
    collect = null;
  }
  return collect;
}
