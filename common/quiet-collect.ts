import { getHeapStatistics } from 'node:v8';

/** V8's `gc`, as `node --expose-gc` gives it to a process (`type`, `execution`, `flavor`). */
export type V8Collect = (options?: {
  type?: 'minor' | 'major';
  execution?: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

/**
 * Gives memory back once a load is over, for a process that is a server of its own (`voice-kit mock`;
 * never `startMockServer` in a user's process, as V8's collector is the process's). When a load ends,
 * V8 keeps the heap pages it grew (young generation included) until its next full collection, which an
 * idle process may not have for a long time: many streams cut after their first bytes left the mock
 * tens of MB larger while its live heap was back to a few. So the process checks once a second: when
 * it has been quiet (under 2 % of a core) for ten checks in a row and its heap or its resident memory
 * has grown 16 MiB or more since the smallest quiet reading, it runs one full collection (nobody waits
 * for it: nothing is being served). During a load it never runs.
 *
 * It uses the process's own `gc` only: the CLI's process gets one when it is started with
 * `--expose-gc` (`npm start` does, docs/performance.md); without it nothing runs. It never sets a V8
 * flag itself. A regular collection, not V8's `last-resort` flavour: after a `last-resort` collection
 * `node:http` servers measured here answered ~25 % slower for good.
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
  /** For tests: the readings and the collector (the process's `gc` by default, if it has one). */
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
 * Starts the checks (an unref'd timer: it never keeps the process alive). Without a collector (the
 * process was not started with `--expose-gc`) nothing runs.
 *
 * @example
 * const quiet = collectWhenQuiet(); // after the server listens
 * quiet.stop(); // on close
 */
export function collectWhenQuiet(options: QuietCollectOptions = {}): QuietCollector {
  const own = (globalThis as { gc?: V8Collect }).gc ?? null;
  const collector = (): V8Collect | null => (options.collect === undefined ? own : options.collect);
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
