/**
 * The one way integration tests start the `voice-kit` CLI as a process: the bin package.json names (the
 * CLI's bundle, dist/bin/voice-kit.js), as `npm start` and an installed package run it. The integration
 * project's global setup (cli/test/build-once.ts) builds dist/ once per `vitest run` when a source
 * changed, so each spawn costs one Node boot instead of a TypeScript loader compiling the CLI again.
 *
 * A test that spawns the CLI should use this file:
 *
 * @example
 * const mock = spawnCli(['mock', '--port', '0']);
 * const url = /http:\/\/\S+/.exec(await mock.firstLine)?.[0];
 * mock.child.kill('SIGINT');
 * expect(await mock.exited).toBe(0);
 *
 * const { code, stderr } = await runCli(['proxy']); // waits for the exit
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root: the working directory of every spawn (relative paths in args resolve here). */
export const root = join(import.meta.dirname, '..', '..');

/** The built bin the tests run: package.json "bin", what `npx voice-kit` runs. */
export const cliBin = join(
  root,
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin[
    'voice-kit'
  ] as string,
);

/** The arguments of `node` that run the CLI with `args`: `spawn(process.execPath, cliArgv(args))`. */
export function cliArgv(args: readonly string[]): string[] {
  return [cliBin, ...args];
}

/** A CLI process, with its output kept as it arrives. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** Its exit code (null when a signal ended it), once its output is all read. */
  readonly exited: Promise<number | null>;
  /** Its first line on stdout; rejects, with its stderr, when it exits before printing one. */
  readonly firstLine: Promise<string>;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
}

/** Options of spawnCli: variables added to the test's own environment, and Node's spawn options. */
export interface CliOptions extends Omit<SpawnOptions, 'env' | 'stdio'> {
  readonly env?: Record<string, string | undefined>;
  /** stdin of the process; stdout and stderr are always piped. Default: ignored. */
  readonly stdin?: 'ignore' | 'pipe';
  /** An ES module's source that Node runs first (`--import data:…`): a hook that reports at exit. */
  readonly preload?: string;
}

/** Starts `voice-kit <args>` from the repository's root. */
export function spawnCli(args: readonly string[], options: CliOptions = {}): CliProcess {
  const { env, stdin = 'ignore', preload, ...rest } = options;
  const imports =
    preload === undefined ? [] : ['--import', `data:text/javascript,${encodeURIComponent(preload)}`];
  const child = spawn(process.execPath, [...imports, ...cliArgv(args)], {
    cwd: root,
    ...rest,
    env: { ...process.env, ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.once('close', (code) => reject(new Error(`exited (${code}) before printing a line: ${stderr}`)));
  });
  firstLine.catch(() => undefined); // awaited only by the tests that expect a line
  return { child, exited, firstLine, output: () => ({ stdout, stderr }) };
}

/**
 * Runs `voice-kit <args>` to its end: its exit code and output. A process still running after
 * `timeoutMs` is killed (a hang fails the test instead of stalling the run).
 */
export async function runCli(
  args: readonly string[],
  options: CliOptions & { readonly timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { timeoutMs = 30_000, ...rest } = options;
  const run = spawnCli(args, rest);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, ...run.output() };
}
