import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at the size it starts with, for a process that is a server of its own
 * (`voice-kit mock`). Under many concurrent streams, objects live across collections (a chunk waiting
 * for its socket, a phrase being rendered), and V8 grows the young generation to its maximum, which it
 * then keeps: 200 streams at once left the mock ~65 MB larger for good (new space 8 → 67 MB), 1,000
 * streams cut after their first bytes ~125 MB (8 → 134 MB), while the heap held 13–15 MB after a full
 * collection. At its first size the same load leaves new space at 1–8 MB. More collections, each as
 * short: CPU +3–5 % in one probe of 50 streams, and 5–14 % less in four side-by-side runs of
 * `npm run bench -- --only fairness,concurrency` (docs/performance.md): no cost that shows.
 *
 * The flag is V8's own (`--semi-space-growth-factor`), read each time it would grow the space, so it
 * can be set after start. Process-wide: only a command that owns its process sets it, never a library
 * call (`startMockServer` in a user's test runner leaves V8 as it is).
 *
 * @example
 * keepYoungGenerationSmall(); // before the mock starts serving
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
