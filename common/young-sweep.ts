import { v8Collector } from './v8-gc.js';

/**
 * Bytes passed between two sweeps: every 16 MiB halved the growth again but cost ~50 % of the speed.
 * Every socket read is a new 64 KiB buffer outside V8's heap; V8 frees them at its next scavenge, which
 * the heap itself rarely asks for while bytes only pass through (a body drained or proxied), so 1 GiB
 * passing grows the process by ~65–80 MB before V8's external-memory limit forces one. A scavenge
 * (v8-gc.ts) runs in ~1 ms.
 */
export const sweepBytes = 32 * 1024 * 1024;

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
    v8Collector()?.({ type: 'minor' });
  };
}
