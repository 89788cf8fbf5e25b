#!/usr/bin/env node
/**
 * The voice-kit bin (package.json "bin"). On a Node older than the kit needs it prints one line naming
 * the version needed and exits 1, instead of the stack trace of whatever newer API or syntax the CLI
 * would meet first. An ES module's static imports all load before its first line runs, so the only one
 * here is the tiny version check; the CLI (voice-kit.ts and everything it loads) is imported after it.
 *
 * When a command ends the process exits at once, once stdout and stderr are flushed, rather than when
 * its event loop drains: Node's own teardown takes tens of milliseconds after the loop is empty, with
 * the default signal actions back in place, so a repeated Ctrl-C landing then (npm forwards one) killed
 * a mock that had already closed cleanly. An explicit exit keeps the stop policy's listeners
 * (stop-signals.ts) to the end.
 */
import { isTooOld, tooOldMessage } from './minimum-node.js';

if (isTooOld(process.versions.node)) {
  process.stderr.write(`${tooOldMessage(process.versions.node)}\n`);
  process.exitCode = 1;
} else {
  import('./voice-kit.js')
    .then(({ main }) => main(process.argv.slice(2)))
    .then(
      (code) => {
        process.exitCode = code;
        exitFlushed(code);
      },
      (error: unknown) => {
        process.stderr.write(
          `voice-kit: ${error instanceof Error ? error.stack || error.message : String(error)}\n`,
        );
        process.exitCode = 1;
        exitFlushed(1);
      },
    );
}

/** process.exit(code) once what was written to stdout and stderr is flushed (pipes are asynchronous on macOS). */
function exitFlushed(code: number): void {
  let left = 2;
  const flushed = () => {
    left -= 1;
    if (left === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}
