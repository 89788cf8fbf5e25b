/**
 * cli/: the voice-kit command, run by the bin (bin.ts, which first checks the Node version). program.ts
 * declares and reads the command line (cac) of both commands; the mock command runs here, the
 * conformance command in conformance.ts (loaded only for it).
 * May import conformance/ and mocks/; nothing in conformance/ or mocks/ imports cli/.
 */
import { resolve } from 'node:path';
import { ConfigError } from '../mocks/config/parse-config.js';
import type { MockConfig } from '../mocks/config/types.js';
import { controlTokenProblem } from '../mocks/node/control-guard.js';
import { type MockServerStartup, startMockServer } from '../mocks/node/server.js';
import { StateDirError } from '../mocks/node/state-dir-error.js';
import { ProfileError } from '../profile/parse.js';
import { pointIds } from '../profile/points.js';
import type { Profile } from '../profile/types.js';
import { npmSlip } from './npm-slips.js';
import { helpText, mockVariables, readCommandLine, usage } from './program.js';
import { onStopSignals } from './stop-signals.js';
import { kitVersion } from './version.js';

type Write = (line: string) => void;

type Env = Readonly<Record<string, string | undefined>>;

/** The port of `voice-kit mock` when neither --port nor VOICE_KIT_PORT names one. */
const defaultPort = 4010;

interface MockFlags {
  /** undefined without --port: then VOICE_KIT_PORT, then 4010. */
  port?: string | number;
  host: string;
  config?: string;
  /** A calibration profile file (wins over the config file's "profile"). */
  profile?: string;
  seed?: string | number;
  /** The control API's token; made at start on a host beyond loopback when not given. */
  controlToken?: string;
  /** Seconds; undefined without --body-timeout (then 30). */
  bodyTimeout?: string | number;
  /** true with --allow-private-urls (else the config file decides). */
  allowPrivateUrls?: boolean;
  /** false with --no-cors. */
  cors: boolean;
  stateDir?: string;
  /** A PostgreSQL URL: the state shared by every mock given it (--state-url). */
  stateUrl?: string;
  /** true with --repair: start without the damaged entries of the state dir. */
  repair?: boolean;
  /** How many fake voices to start with (--populate). */
  populate?: string | number;
}

/** `source` names where the value came from in a refusal: `--port` or `VOICE_KIT_PORT`. */
function integerFlag(source: string, value: string | number, min: number, max: number): number {
  const number = typeof value === 'string' && value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError([`${source}: expected an integer from ${min} to ${max}, got "${value}"`]);
  }
  return number;
}

/** The port to listen on: --port, else VOICE_KIT_PORT, else 4010. */
function portOf(flags: MockFlags, env: Env): number {
  if (flags.port !== undefined) return integerFlag('--port', flags.port, 0, 65_535);
  const variable = env[mockVariables.port];
  if (variable !== undefined) return integerFlag(mockVariables.port, variable, 0, 65_535);
  return defaultPort;
}

/** Starts the mock and resolves when it has been stopped by SIGINT/SIGTERM (exit code 0). */
async function runMock(flags: MockFlags, env: Env, write: Write, fail: Write): Promise<number> {
  let config: MockConfig | undefined;
  let port: number;
  let seed: number | undefined;
  let bodyTimeoutMs: number | undefined;
  let populate: number | undefined;
  let stateDir: string | undefined;
  let stateUrl: string | undefined;
  let profile: { profile: Profile; source: string } | undefined;
  try {
    populate = flags.populate === undefined ? undefined : integerFlag('--populate', flags.populate, 1, 1000);
    stateDir = flags.stateDir === undefined ? undefined : String(flags.stateDir);
    if (stateDir === '') throw new ConfigError(['--state-dir: expected a directory']);
    stateUrl = flags.stateUrl === undefined ? undefined : String(flags.stateUrl);
    port = portOf(flags, env);
    const tokenProblem =
      flags.controlToken === undefined ? undefined : controlTokenProblem(String(flags.controlToken));
    if (tokenProblem !== undefined) throw new ConfigError([`--control-token ${tokenProblem}`]);
    seed = flags.seed === undefined ? undefined : integerFlag('--seed', flags.seed, 0, 2 ** 32 - 1);
    bodyTimeoutMs =
      flags.bodyTimeout === undefined
        ? undefined
        : integerFlag('--body-timeout', flags.bodyTimeout, 1, 3600) * 1000;
    // Imported only with --config: each module is startup time, and most runs use the defaults.
    if (flags.config) {
      const file = await (await import('../mocks/node/load-config.js')).readMockFile(flags.config);
      config = file.config;
      // --state-dir wins over the file's "stateDir", --profile over its "profile".
      stateDir ??= file.stateDir;
      stateUrl ??= file.stateUrl;
      if (file.profile && flags.profile === undefined)
        profile = { profile: file.profile, source: file.profileSource ?? flags.config };
    }
    if (flags.profile !== undefined) profile = await profileFlag(String(flags.profile));
    if (stateUrl !== undefined) {
      const { stateUrlProblem } = await import('../mocks/node/postgres/state-url.js');
      const problem = stateUrlProblem('--state-url', stateUrl);
      if (problem) throw new ConfigError([problem]);
      if (stateDir !== undefined)
        throw new ConfigError([
          '--state-url: keeps the state in a database; give it or --state-dir, not both',
        ]);
    }
  } catch (error) {
    // A profile the kit cannot read: one line naming the file and the field, exit 2, no stack.
    if (error instanceof ProfileError) {
      fail(`voice-kit mock: ${error.message}`);
      return 2;
    }
    if (!(error instanceof ConfigError)) throw error;
    return usage(fail, error.problems, 'mock');
  }
  if (flags.repair === true && stateDir === undefined)
    return usage(fail, ['--repair: repairs a state dir; give one with --state-dir'], 'mock');
  let server: Awaited<ReturnType<typeof startMockServer>>;
  try {
    server = await startMockServer({
      port,
      host: flags.host,
      ...(seed === undefined ? {} : { seed }),
      cors: flags.cors !== false,
      ...(bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs }),
      ...(flags.controlToken === undefined ? {} : { controlToken: String(flags.controlToken) }),
      ...(flags.allowPrivateUrls === true ? { allowPrivateUrls: true } : {}),
      ...(config ? { config } : {}),
      ...(stateDir === undefined ? {} : { stateDir }),
      ...(stateUrl === undefined ? {} : { stateUrl }),
      ...(flags.repair === true ? { repair: true } : {}),
      ...(populate === undefined ? {} : { populate: { voices: populate, seed: seed ?? 1 } }),
      ...(profile ? { serviceOptions: { profile: profile.profile } } : {}),
    });
  } catch (error) {
    // A state dir it cannot use: one message naming the file and what to do, exit 2, no empty mock.
    if (error instanceof StateDirError) {
      fail(`voice-kit mock: ${error.message}`);
      return 2;
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      fail(
        `voice-kit mock: port ${port} on ${flags.host} is in use; pick another with --port N or ${mockVariables.port}=N`,
      );
    else fail(`voice-kit mock: cannot listen on ${flags.host}:${port}: ${(error as Error).message}`);
    return 1;
  }
  // One stop policy for every command (stop-signals.ts): the first signal closes the server; a later
  // one exits 130 at once (the state dir, if any, is written as it goes).
  const stopped = new Promise<number>((resolve) => {
    const stopListening = onStopSignals({
      finish: () => {
        void server.close().then(() => {
          stopListening();
          resolve(0);
        });
      },
    });
  });
  // Printed only once Ctrl-C is handled, so whoever reads the line may stop the server at once.
  const keys = server.service.config.keys.map((k) => k.key).join(', ');
  const token =
    server.controlToken === undefined ? '' : `, header X-Mock-Control-Token: ${server.controlToken}`;
  const kept =
    stateUrl !== undefined
      ? `; state kept in ${(await import('../mocks/node/postgres/state-url.js')).shownUrl(stateUrl)}${restoredText(server.startup)}`
      : stateDir === undefined
        ? ''
        : `; state kept in ${resolve(stateDir)}${restoredText(server.startup)}`;
  for (const line of droppedLines(server.startup)) fail(line);
  // The token rides in the fragment, which a browser never sends: the page reads it from there.
  const dashboard = `${server.url}/__mock/${server.controlToken === undefined ? '' : `#token=${server.controlToken}`}`;
  write(
    `voice-kit mock listening on ${server.url} (X-API-Key: ${keys}; control API: ${server.url}/__mock/${token}; dashboard: ${dashboard} in a browser${kept}${populatedText(server.startup, populate)}${profileText(profile)})`,
  );
  return stopped;
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The --profile file, read (imported only then: each module is startup time). */
async function profileFlag(path: string): Promise<{ profile: Profile; source: string }> {
  if (path.trim() === '') throw new ProfileError('--profile: expected a file', '');
  const { readProfileFile } = await import('../profile/profile-file.js');
  return { profile: await readProfileFile(path), source: path };
}

/** "; profile staging.json: 7 points (list-order, …); the rest are the mock's own choices". */
function profileText(profile: { profile: Profile; source: string } | undefined): string {
  if (!profile) return '';
  const ids = pointIds.filter((id) => profile.profile.points[id] !== undefined);
  const list = ids.length === 0 ? '' : ` (${ids.join(', ')})`;
  return `; profile ${profile.source}: ${count(ids.length, 'point')}${list}; the rest are the mock's own choices`;
}

/** ": restored 12 voices and 3 uploads" (or "(a new state dir)" when it held nothing). */
function restoredText(startup: MockServerStartup): string {
  const restored = startup.restored;
  if (!restored) return '';
  if (restored.voices === 0 && restored.uploads === 0) return ' (empty)';
  return `: restored ${count(restored.voices, 'voice')} and ${count(restored.uploads, 'upload')}`;
}

/** "; --populate 20 added 20 voices", or why it added none. */
function populatedText(startup: MockServerStartup, asked: number | undefined): string {
  if (asked === undefined || startup.populated === undefined) return '';
  if (startup.populated === 0)
    return `; --populate ${asked} skipped: the state dir already holds voices (it populates a new one only)`;
  return `; --populate ${asked} added ${count(startup.populated, 'voice')}`;
}

/** What --repair dropped, one line each (stderr): the voices and uploads, and where the file went. */
function droppedLines(startup: MockServerStartup): string[] {
  return startup.dropped.map((entry) => {
    const what = [
      ...(entry.voiceIds.length > 0 ? [`voice ${entry.voiceIds.join(', ')}`] : []),
      ...(entry.uploadKeys.length > 0 ? [`upload ${entry.uploadKeys.join(', ')}`] : []),
    ].join(' and ');
    return `voice-kit mock --repair: dropped ${what}: its recording ${entry.file} ${entry.problem} (moved into damaged/ when there)`;
  });
}

/**
 * The `voice-kit` command: `voice-kit mock [flags]` runs the stateful mock, `voice-kit conformance
 * [flags]` the conformance suite; `voice-kit <command> --help` lists the flags. Both are read by one
 * parser (program.ts). Output goes to `write` (stdout), progress and errors to `fail` (stderr).
 *
 * @example
 * process.exitCode = await main(['mock', '--port', '0']);
 */
export async function main(
  argv: readonly string[],
  write: Write = (line) => process.stdout.write(`${line}\n`),
  fail: Write = (line) => process.stderr.write(`${line}\n`),
  env: Env = process.env,
): Promise<number> {
  const line = readCommandLine(argv);
  if (line.help || argv.length === 0) {
    write(helpText(line.command?.name));
    return 0;
  }
  if (line.options.version === true) {
    write(kitVersion());
    return 0;
  }
  // `npm start --port 21050`: npm took the flag; never start as if it had not been given.
  const slip = line.command ? npmSlip(line.command.name, line.flags, line.strays, env) : undefined;
  if (slip !== undefined) return usage(fail, [slip], line.command?.name);
  if (line.command?.name === 'conformance') {
    // Imported only for this command: each module is startup time for the mock.
    const { conformanceCommand } = await import('./conformance.js');
    return conformanceCommand(line, env, fail, write);
  }
  if (line.command?.name === 'proxy') {
    if (line.problems.length > 0) return usage(fail, line.problems, 'proxy');
    const { proxyCommand } = await import('./proxy.js');
    return proxyCommand(line.options, write, fail);
  }
  if (line.problems.length > 0 || !line.command) return usage(fail, line.problems, line.command?.name);
  return runMock(line.options as unknown as MockFlags, env, write, fail);
}

/**
 * `voice-kit conformance <argv>` with explicit variables; resolves with the exit code. Progress and
 * errors go to `write` (stderr), the help and --list to `print` (stdout).
 *
 * @example
 * process.exitCode = await conformanceCli(['--base-url', url, '--api-key', key], process.env);
 */
export function conformanceCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  write: Write = (l) => process.stderr.write(`${l}\n`),
  print: Write = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  return main(['conformance', ...argv], print, write, env);
}
