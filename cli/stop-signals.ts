/**
 * How the long-running commands (`voice-kit mock`, `proxy`, `conformance` and `--explore`) stop, one
 * policy for all: the first SIGINT or SIGTERM asks to finish (the run or the proxy writes its reports,
 * the mock closes); another within a second is the same request (one Ctrl-C under `npm run` reaches the
 * process twice, from the terminal and forwarded by npm; a SIGTERM to the process group likewise); a
 * later one means "now": what was already judged is written synchronously, then the process exits 130.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeReportFile } from '../common/report-file.js';

/** Signals within this long of the first are the same request to stop, ms. */
export const sameStopMs = 1000;

/** The exit code of a command stopped "now" (128 + SIGINT's 2, as shells report it). */
export const stoppedNowCode = 130;

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** What the policy listens on: `process` (a stand-in in tests). */
export interface SignalSource {
  on(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

export interface StopHandlers {
  /** The first request to stop: finish what is under way, write the reports. Called once. */
  readonly finish: (signal: StopSignal) => void;
  /**
   * A later signal: write what was judged, synchronously, and exit. Called once; when it returns the
   * policy calls `exit(130)`.
   */
  readonly now?: () => void;
}

export interface StopOptions {
  readonly source?: SignalSource;
  /** Milliseconds now (Date.now in the CLI). */
  readonly clock?: () => number;
  readonly exit?: (code: number) => void;
  /** Runs `fn` after `ms` without keeping the process alive (an unref'd setTimeout in the CLI). */
  readonly later?: (ms: number, fn: () => void) => void;
}

/**
 * Listens for SIGINT and SIGTERM with the policy above; answers the function that stops listening.
 * Called once the command has finished, that function keeps swallowing signals until the window of
 * the first one closes: a command that finished within 50 ms of a Ctrl-C (the mock's close) would
 * otherwise meet npm's forwarded copy with no listener left and die by the signal instead of exiting 0.
 *
 * @example
 * const stopListening = onStopSignals({ finish: () => controller.abort(), now: () => writeSoFar() });
 */
export function onStopSignals(handlers: StopHandlers, options: StopOptions = {}): () => void {
  const source = options.source ?? process;
  const clock = options.clock ?? Date.now;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const later = options.later ?? ((ms: number, fn: () => void) => void setTimeout(fn, ms).unref());
  let first: number | undefined;
  let stoppingNow = false;
  let finished = false;
  const listener = (signal: StopSignal) => {
    if (finished) return;
    const at = clock();
    if (first === undefined) {
      first = at;
      handlers.finish(signal);
      return;
    }
    if (at - first < sameStopMs || stoppingNow) return;
    stoppingNow = true;
    try {
      handlers.now?.();
    } finally {
      exit(stoppedNowCode);
    }
  };
  const onInt = () => listener('SIGINT');
  const onTerm = () => listener('SIGTERM');
  source.on('SIGINT', onInt);
  source.on('SIGTERM', onTerm);
  const detach = () => {
    source.off('SIGINT', onInt);
    source.off('SIGTERM', onTerm);
  };
  return () => {
    if (finished) return;
    finished = true;
    const left = first === undefined ? 0 : first + sameStopMs - clock();
    if (left <= 0) detach();
    else later(left, detach);
  };
}

/**
 * Writes `files` (name → text) into `dir` synchronously, the way every report is written
 * (common/report-file.ts: a temporary file renamed over its name, a symbolic link there refused): the
 * reports of a command stopped "now". Answers the paths written; a file that cannot be written is
 * skipped (the process is about to exit).
 */
export function writeNow(dir: string, files: ReadonlyArray<readonly [string, string]>): string[] {
  const written: string[] = [];
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    // The writes below fail and are skipped.
  }
  for (const [name, text] of files) {
    const path = join(dir, name);
    try {
      writeReportFile(path, text);
      written.push(path);
    } catch {
      // Skipped: the process is about to exit.
    }
  }
  return written;
}
