import { executionAsyncResource } from 'node:async_hooks';

/**
 * One `process.nextTick` entry kept alive for the life of the process, so that Node's tick entries
 * keep their hidden class (V8's "map") through garbage collections. **Node only.**
 *
 * Why, as measured on Node 22.23 and 24.21 (docs/performance.md, the fourteenth round):
 * - Node builds every tick entry with an object literal whose first keys are computed symbols
 *   (`lib/internal/process/task_queues.js`). V8 defines such keys with one feedback slot each that
 *   has no polymorphic state: it remembers one map, and a second map sends it megamorphic for good.
 * - The maps a tick entry passes through are held only by live tick entries. V8 keeps an unused map
 *   through two major collections (`--retain-maps-for-n-gc`); three in a row that find no tick entry
 *   alive free them. A CPU-bound stretch (an upload's analysis), an idle process's memory reducer
 *   and V8's `last-resort` collection all do that.
 * - The next tick then builds new maps, the slots go megamorphic, and `nextTick` defines each key in
 *   V8's runtime from then on: 50 → 265 ns a tick in a loop of ticks, and ~15 % of the list's
 *   throughput on `node:http` (each request takes several ticks).
 * Holding one entry holds its map and, through the map's back pointers, every map before it. Node 26
 * builds tick entries with a class (`TickObject`), whose map its constructor holds: there this costs
 * one small object and changes nothing.
 *
 * The entry is process state, not the service's: no reset clears it, and a second call keeps the first.
 *
 * @example
 * holdTickShape(); // before a node:http server listens
 */
export function holdTickShape(): void {
  if (held !== undefined) return;
  held = null;
  // Inside a tick's callback, the resource Node reports is the tick entry itself.
  process.nextTick(() => {
    held = executionAsyncResource();
  });
}

/** The tick entry held, once the tick has run (null before). */
export function heldTickEntry(): object | null {
  return held ?? null;
}

let held: object | null | undefined;
