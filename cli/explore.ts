/**
 * `voice-kit conformance --explore` and `--replay FILE`: the explorer (conformance/explore/) from the
 * command line. Exit 0 when no sequence broke a must rule (or the reproduction no longer deviates), 1
 * when one did (a reproduction is written), 2 on a usage error, 130 after Ctrl-C.
 */

import {
  type ExploreOptions,
  type ExploreResult,
  exploreDeployment,
  exploreReportFiles,
  exploreSummary,
  type ReplayOutcome,
  replayReproduction,
  replayVerdictLine,
  writeExploreReports,
  writeReplayReports,
} from '../conformance/explore/index.js';
import type { RunOptions } from '../conformance/index.js';
import { ConformanceSetupError } from '../conformance/index.js';
import { fileErrorText } from '../conformance/reporters/report-dir.js';
import { networkError, preconditionNotMet, reportsNotWritten } from './exit-codes.js';
import { usage } from './program.js';
import { onStopSignals, writeNow } from './stop-signals.js';

/** What --explore / --replay ask for. */
export interface ExploreRequest {
  readonly replay: string | undefined;
  readonly budgetChars?: number;
  readonly budgetUploads?: number;
  readonly budgetCreations?: number;
  readonly maxTimeSeconds?: number;
  readonly seed?: number;
}

type Write = (line: string) => void;

const flagOf: Readonly<Record<string, string>> = {
  budgetChars: '--budget-chars',
  budgetUploads: '--budget-uploads',
  budgetCreations: '--budget-creations',
  maxTimeSeconds: '--max-time',
  replay: '--replay',
};

/** The exit code of each way a replay ends (docs/conformance.md, exit codes). */
const replayExit: Readonly<Record<ReplayOutcome, number>> = {
  pass: 0,
  fail: 1,
  unmet: preconditionNotMet,
  network: networkError,
  aborted: 130,
};

/** --replay FILE: the steps and their answers, the verdict in one line, the reports; the exit code. */
async function replayCommand(
  file: string,
  options: ExploreOptions,
  reportDir: string,
  write: Write,
): Promise<number> {
  const r = await replayReproduction(file, options);
  for (const s of r.steps)
    write(`  ${s.step.label} → ${s.status === undefined ? `not sent (${s.skipped})` : `HTTP ${s.status}`}`);
  for (const v of r.verdicts) write(`FAIL ${v.rule} (${v.section}): ${v.seen}`);
  write(replayVerdictLine(r));
  try {
    write(`reports: ${(await writeReplayReports(r, reportDir)).join(', ')}`);
  } catch (e) {
    write(`error: reports could not be written to ${reportDir}: ${fileErrorText(e)}`);
    return r.outcome === 'pass' ? reportsNotWritten : replayExit[r.outcome];
  }
  return replayExit[r.outcome];
}

/** Explore (or replay) with the options of the command line; resolves with the exit code. */
export async function explore(
  request: {
    readonly options: RunOptions;
    readonly reportDir: string;
    /** The flag or variable each option came from (`--base-url`, `VOICE_KIT_BASE_URL`). */
    readonly sourceOf?: Readonly<Record<string, string>>;
  },
  ask: ExploreRequest,
  write: Write,
): Promise<number> {
  const controller = new AbortController();
  let soFar: (() => ExploreResult) | undefined;
  // stop-signals.ts: the first stop ends the exploration (its reports are written); a later one
  // writes what was judged so far, synchronously, and quits.
  const stopListening = onStopSignals({
    finish: () => {
      write(
        'interrupted: ending the exploration, then writing its reports (stop again a second later to quit now)',
      );
      controller.abort();
    },
    now: () => {
      if (soFar === undefined) {
        write('stopped again: exiting before anything was judged');
        return;
      }
      const judged = soFar();
      const partial: ExploreResult = {
        ...judged,
        ok: false,
        cleanup: {
          ...judged.cleanup,
          failures: ['stopped before the cleanup ended: voices this run created may remain'],
        },
      };
      const files = writeNow(request.reportDir, exploreReportFiles(partial));
      write(
        `stopped again: ${files.length > 0 ? `wrote ${files.join(', ')} with` : 'could not write the reports of'} the ${partial.sequences} sequence(s) judged so far; voices of this run may remain; exiting`,
      );
    },
  });
  const { replay, ...budgets } = ask;
  const options: ExploreOptions = {
    ...request.options,
    ...budgets,
    signal: controller.signal,
    onProgress: write,
    onStarted: (get) => {
      soFar = get;
    },
  };
  try {
    if (replay !== undefined) return await replayCommand(replay, options, request.reportDir, write);
    const result = await exploreDeployment(options);
    write(exploreSummary(result));
    try {
      write(`reports: ${(await writeExploreReports(result, request.reportDir)).join(', ')}`);
    } catch (e) {
      write(`error: reports could not be written to ${request.reportDir}: ${fileErrorText(e)}`);
      return reportsNotWritten;
    }
    if (controller.signal.aborted) return 130;
    return result.ok ? 0 : 1;
  } catch (e) {
    if (!(e instanceof ConformanceSetupError)) throw e;
    // A reproduction file that is not one: one line, naming the file and what is wrong.
    if (e.option === 'replay') {
      write(`error: --replay ${e.detail}`);
      return 2;
    }
    const flag =
      request.sourceOf?.[e.option] ??
      flagOf[e.option] ??
      `--${e.option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return usage(write, [`${flag} ${e.detail}`], 'conformance');
  } finally {
    stopListening();
  }
}
