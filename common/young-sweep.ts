import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes passed between two sweeps: every 16 MiB halved the growth again but cost ~50 % of the speed. */
export const sweepBytes = 32 * 1024 * 1024;

let collector: (() => void) | null | undefined;

/**
 * V8's young-generation collector, or null where it cannot be had. Every socket read is a new 64 KiB
 * buffer outside V8's heap; V8 frees them at its next scavenge, which the heap itself rarely asks for
 * while bytes only pass through (a body drained or proxied), so 1 GiB passing grows the process by
 * ~65–80 MB before V8's external-memory limit forces one. Node's own `gc`, reached through V8's
 * documented `--expose-gc` flag set at run time in a context of its own (the user's global gets no
 * `gc`), runs a scavenge in ~1 ms.
 */
function youngCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    const existing = (globalThis as { gc?: (options?: object) => void }).gc;
    if (existing) collector = () => existing({ type: 'minor' });
    else {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as ((options?: object) => void) | undefined;
      collector = gc ? () => gc({ type: 'minor' }) : null;
    }
  } catch {
    collector = null;
  }
  return collector;
}

/**
 * Counts bytes that pass through and runs a scavenge after every `sweepBytes`, so memory stays near
 * `sweepBytes` above the baseline whatever the body's size. Measured in `npm run bench` (upload and
 * proxy sections): the growth without it is V8's choice, not ours to bound.
 *
 * @example
 * const sweep = youngSweep();
 * req.on('data', (chunk) => sweep(chunk.length));
 */
export function youngSweep(): (bytes: number) => void {
  let passed = 0;
  return (bytes) => {
    passed += bytes;
    if (passed < sweepBytes) return;
    passed = 0;
    // Asked for at the first sweep: a mock that never drains a big body never sets the flag.
    youngCollector()?.();
  };
}
