/**
 * The integration project's global setup: builds dist/ (tsc, the CLI's and the dashboard's bundles)
 * once per `vitest run`, and only when a source is newer than the last build (scripts/ensure-built.mjs,
 * as `npm start` does). The tests that spawn the CLI then run the built bin (cli/test/run-cli.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = join(import.meta.dirname, '..', '..');

export default async function buildOnce(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`building dist/ for the CLI tests failed:\n${stdout}${stderr}`);
  }
}
