/**
 * `voice-kit conformance --explore` and `--replay FILE`: the explorer (conformance/explore/) from the
 * command line. Exit 0 when no sequence broke a must rule (or the reproduction no longer deviates), 1
 * when one did (a reproduction is written), 2 on a usage error, 130 after Ctrl-C.
 */

import {
  type ExploreOptions,
  exploreDeployment,
  exploreSummary,
  replayReproduction,
  writeExploreReports,
} from '../conformance/explore/index.js';
import type { RunOptions } from '../conformance/index.js';
import { ConformanceSetupError } from '../conformance/index.js';
import { usage } from './program.js';
import { onStopSignals } from './stop-signals.js';

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

/** Explore (or replay) with the options of the command line; resolves with the exit code. */
export async function explore(
  request: { readonly options: RunOptions; readonly reportDir: string },
  ask: ExploreRequest,
  write: Write,
): Promise<number> {
  const controller = new AbortController();
  // stop-signals.ts: the first stop ends the exploration (its reports are written); a later one quits.
  const stopListening = onStopSignals({
    finish: () => {
      write(
        'interrupted: ending the exploration, then writing its reports (stop again a second later to quit now)',
      );
      controller.abort();
    },
    now: () => write('stopped again: exiting before the exploration’s reports were written'),
  });
  const { replay, ...budgets } = ask;
  const options: ExploreOptions = {
    ...request.options,
    ...budgets,
    signal: controller.signal,
    onProgress: write,
  };
  try {
    if (replay !== undefined) {
      const r = await replayReproduction(replay, options);
      for (const s of r.steps)
        write(
          `  ${s.step.label} → ${s.status === undefined ? `skipped (${s.skipped})` : `HTTP ${s.status}`}`,
        );
      for (const v of r.verdicts) write(`FAIL ${v.rule} (${v.section}): ${v.seen}`);
      write(
        r.ok
          ? 'PASS: the reproduction no longer deviates'
          : `FAIL: still deviates (${r.verdicts.map((v) => v.rule).join(', ')})`,
      );
      return r.ok ? 0 : 1;
    }
    const result = await exploreDeployment(options);
    write(exploreSummary(result));
    const paths = await writeExploreReports(result, request.reportDir);
    write(`reports: ${paths.join(', ')}`);
    if (controller.signal.aborted) return 130;
    return result.ok ? 0 : 1;
  } catch (e) {
    if (!(e instanceof ConformanceSetupError)) throw e;
    return usage(write, [`${flagOf[e.option] ?? `--${e.option}`} ${e.detail}`], 'conformance');
  } finally {
    stopListening();
  }
}
