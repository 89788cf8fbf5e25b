import { getHeapStatistics } from 'node:v8';
import { type V8Collect, v8Collector } from './v8-gc.js';

/**
 * Gives memory back once a load is over, for a process that is a server of its own (`voice-kit mock`;
 * never `startMockServer` in a user's process, as V8's collector is the process's). Under many streams
 * at once V8 grows its heap, young generation included, and keeps the pages when the load ends: 1,000
 * streams cut after their first bytes left the mock ~120 MB larger for good, while its live heap was
 * back at ~11 MB. V8 gives them back only in a collection that asks it to (`flavor: 'last-resort'`),
 * which it runs on its own only near its limit. So the process checks once a second: when it has been
 * quiet (under 2 % of a core) for ten checks in a row and its heap has grown 16 MiB or more since the
 * smallest quiet reading, it runs that collection once (~20–80 ms, nobody waits for it: nothing is
 * being served). During a load it never runs: the young generation keeps the size V8 chose for the
 * load, which spares 50 streams at once ~20 % of their work in scavenges. Ten seconds, not two: the
 * collection shrinks the young generation to its least, and a load that comes back within seconds (a
 * benchmark's next round, a test suite's next file) paid ~25 % more CPU per list request for it while
 * V8 grew it again (docs/performance.md).
 */

/** What the collector reads each check: CPU microseconds used so far, the heap's committed bytes, the clock. */
export interface Readings {
  cpuMicros(): number;
  heapBytes(): number;
  nowMs(): number;
}

export interface QuietCollectOptions {
  /** Between checks, ms. */
  readonly everyMs?: number;
  /** Checks in a row under `busyShare` before a collection. */
  readonly quietChecks?: number;
  /** The share of one core under which a check counts as quiet. */
  readonly busyShare?: number;
  /** Heap growth since the smallest quiet reading that calls for a collection, bytes. */
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
  // The smallest heap seen while quiet (or at the start): what a load grew it from.
  let baseline = read.heapBytes();
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
    baseline = Math.min(baseline, heap);
    const collect = quietInARow >= quietChecks && heap - baseline >= grownBytes ? collector() : null;
    if (!collect) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    collections++;
    baseline = read.heapBytes();
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
