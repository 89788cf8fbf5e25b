/**
 * `voice-kit conformance` / `npm run conformance`: run the suite and write the reports.
 * Exit 0 when every must case passed, 1 when one failed, 2 on a usage error, 130 after Ctrl-C.
 * A usage error is anything that would make a run test nothing or the wrong thing (see cli-args.ts,
 * and runConformance's setup checks: the reference recording, the reachability of --base-url).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allCases } from '../conformance/cases/index.js';
import { runConformance } from '../conformance/index.js';
import { terminalProgress, terminalSummary } from '../conformance/reporters/terminal.js';
import { writeReports } from '../conformance/reporters/write-reports.js';
import { ConformanceSetupError } from '../conformance/setup/setup-error.js';
import { type CliRequest, parseCliArgs, UsageError } from './conformance-args.js';
import { helpText } from './conformance-flags.js';
import { caseList, onlyProblems } from './conformance-list.js';

type Env = Readonly<Record<string, string | undefined>>;
type Write = (line: string) => void;

/** Usage problems on stderr, then exit code 2. */
function usage(write: Write, problems: readonly string[]): number {
  for (const p of problems) write(`error: ${p}`);
  write('see: voice-kit conformance --help');
  return 2;
}

/**
 * Run the CLI with explicit argv and env; resolves with the exit code. Progress and errors go to
 * `write` (stderr), the help and --list to `print` (stdout), so `--list | grep` works.
 *
 * @example
 * process.exitCode = await conformanceCli(['--base-url', url, '--api-key', key], process.env);
 */
export async function conformanceCli(
  argv: readonly string[],
  env: Env,
  write: Write = (l) => process.stderr.write(`${l}\n`),
  print: Write = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  let request: CliRequest;
  try {
    request = parseCliArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usage(write, e.problems);
  }
  if (request.help) {
    print(helpText());
    return 0;
  }
  const only = request.options.only ?? [];
  const unmatched = onlyProblems(allCases, only, request.sourceOf.only ?? '--only');
  if (unmatched.length > 0) return usage(write, unmatched);
  if (request.list) {
    const lines = caseList(allCases, only);
    for (const line of lines) print(line);
    write(`${lines.length} cases`);
    return 0;
  }
  return run(request, write);
}

async function run(request: CliRequest, write: Write): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    write(
      'interrupted: finishing the current case, then deleting the voices of this run (Ctrl-C again to quit now)',
    );
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await runConformance({
      ...request.options,
      signal: controller.signal,
      onProgress: terminalProgress(write),
    });
    write(terminalSummary(result));
    const paths = await writeReports(result, request.reportDir);
    write(`reports: ${paths.join(', ')}`);
    if (result.aborted) return 130;
    return result.ok ? 0 : 1;
  } catch (e) {
    // Raised before any case ran: name the flag (or variable) the user wrote, not the option.
    if (!(e instanceof ConformanceSetupError)) throw e;
    const flag = `--${e.option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return usage(write, [`${request.sourceOf[e.option] ?? flag} ${e.detail}`]);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  conformanceCli(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `voice-kit conformance: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = 2;
    },
  );
}
