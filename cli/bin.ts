#!/usr/bin/env node
/**
 * The voice-kit bin (package.json "bin"). On a Node older than the kit needs it prints one line naming
 * the version needed and exits 1, instead of the stack trace of whatever newer API or syntax the CLI
 * would meet first. An ES module's static imports all load before its first line runs, so the only one
 * here is the tiny version check; the CLI (voice-kit.ts and everything it loads) is imported after it.
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
      },
      (error: unknown) => {
        process.stderr.write(
          `voice-kit: ${error instanceof Error ? error.stack || error.message : String(error)}\n`,
        );
        process.exitCode = 1;
      },
    );
}
