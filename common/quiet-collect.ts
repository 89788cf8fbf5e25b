import { getHeapStatistics } from 'node:v8';
import { type V8Collect, v8Collector } from './v8-gc.js';

/**
 * Gives memory back once a load is over, for a process that is a server of its own (`voice-kit mock`;
 * never `startMockServer` in a user's process, as V8's collector is the process's). Under many streams
 * at once V8 grows its heap, young generation included, and Node's sockets hold buffers outside it;
 * when the load ends, V8 keeps the pages until its next full collection, which an idle process may not
 * have for a long time: 1,000 streams cut after their first bytes left the mock ~60–120 MB larger,
 * while its live heap was back at ~11 MB. So the process checks once a second: when it has been quiet
 * (under 2 % of a core) for ten checks in a row and its heap or its resident memory has grown 16 MiB or
 * more since the smallest quiet reading, it runs one full collection (~11 ms here; nobody waits for it:
 * nothing is being served). In a process that allocates next to nothing, V8 then shrinks its young
 * generation too and frees what the sockets held. During a load it never runs: the young generation
 * keeps the size V8 chose for the load, which spares 50 streams at once ~20 % of their work in
 * scavenges.
 *
 * A regular collection, not V8's `last-resort` flavour (which this once ran): after a `last-resort`
 * collection every `node:http` server measured here, a bare one included, answered ~25 % slower for
 * good (as long as it was measured, 24 s and more), with V8's object-literal and map-transition work
 * in its runtime instead of its inline caches; a regular one leaves the speed as it was and gives back
 * as much after the 1,000 cut streams (docs/performance.md, the twelfth round). Why: a `last-resort`
 * collection collects several times in a row, which frees the hidden classes of Node's tick entries
 * unless one is held (tick-shape.ts, the fourteenth round). A regular one still costs the next load's
 * first seconds a re-optimization of Node's HTTP code (+0.7–2.4 µs a request over the 3 s after it, in
 * 8 of 9 runs; same round).
 */

/**
 * What the collector reads each check: CPU microseconds used so far, the heap's committed bytes, the
 * process's resident bytes (sockets' buffers live outside the heap), the clock.
 */
export interface Readings {
  cpuMicros(): number;
  heapBytes(): number;
  rssBytes(): number;
  nowMs(): number;
}

export interface QuietCollectOptions {
  /** Between checks, ms. */
  readonly everyMs?: number;
  /** Checks in a row under `busyShare` before a collection. */
  readonly quietChecks?: number;
  /** The share of one core under which a check counts as quiet. */
  readonly busyShare?: number;
  /** Growth of the heap or of the resident memory since its smallest quiet reading that calls for a collection, bytes. */
  readonly grownBytes?: number;
  /** For tests: the readings and the collector (V8's by default, reached when first due). */
  readonly readings?: Readings;
  readonly collect?: V8Collect | null;
}

/** A running quiet collector. */
export interface QuietCollector {
  /** One check, as the timer runs it (tests call it with their own readings). */
  check(): void;
  /** Collections run so far. */
  readonly collections: number;
  stop(): void;
}

const processReadings: Readings = {
  cpuMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  heapBytes: () => getHeapStatistics().total_heap_size,
  rssBytes: () => process.memoryUsage.rss(),
  nowMs: () => performance.now(),
};

/**
 * Starts the checks (an unref'd timer: it never keeps the process alive). V8's collector is reached
 * only when a collection is first due (~1 ms, not at start-up); where it cannot be had, nothing runs.
 *
 * @example
 * const quiet = collectWhenQuiet(); // after the server listens
 * quiet.stop(); // on close
 */
export function collectWhenQuiet(options: QuietCollectOptions = {}): QuietCollector {
  const collector = (): V8Collect | null => (options.collect === undefined ? v8Collector() : options.collect);
  const read = options.readings ?? processReadings;
  const busyShare = options.busyShare ?? 0.02;
  const quietChecks = options.quietChecks ?? 10;
  const grownBytes = options.grownBytes ?? 16 * 1024 * 1024;
  let lastCpu = read.cpuMicros();
  let lastAt = read.nowMs();
  let quietInARow = 0;
  // The smallest heap and resident size seen while quiet (or at the start): what a load grew them from.
  let heapBase = read.heapBytes();
  let rssBase = read.rssBytes();
  let collections = 0;
  const check = (): void => {
    const cpu = read.cpuMicros();
    const at = read.nowMs();
    const share = (cpu - lastCpu) / 1000 / Math.max(1, at - lastAt);
    lastCpu = cpu;
    lastAt = at;
    quietInARow = share < busyShare ? quietInARow + 1 : 0;
    if (quietInARow === 0) return;
    const heap = read.heapBytes();
    const rss = read.rssBytes();
    heapBase = Math.min(heapBase, heap);
    rssBase = Math.min(rssBase, rss);
    const grown = heap - heapBase >= grownBytes || rss - rssBase >= grownBytes;
    const collect = quietInARow >= quietChecks && grown ? collector() : null;
    if (!collect) return;
    collect({ type: 'major', execution: 'sync' });
    collections++;
    heapBase = read.heapBytes();
    rssBase = read.rssBytes();
    // The collection's own CPU is not a load: the next check measures from here.
    lastCpu = read.cpuMicros();
    lastAt = read.nowMs();
  };
  const timer = setInterval(check, options.everyMs ?? 1000);
  timer.unref();
  return {
    check,
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
