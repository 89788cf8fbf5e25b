#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cac } from 'cac';
import { startMockServer } from '../mocks/adapters/node.js';
import { ConfigError } from '../mocks/config/parse-config.js';
import type { MockConfig } from '../mocks/config/types.js';

type Write = (line: string) => void;

interface MockFlags {
  port: string | number;
  host: string;
  config?: string;
  seed: string | number;
  /** false with --no-cors. */
  cors: boolean;
}

function integerFlag(name: string, value: string | number, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError([`--${name}: expected an integer from ${min} to ${max}, got "${value}"`]);
  }
  return number;
}

/** Starts the mock and resolves when it has been stopped by SIGINT/SIGTERM (exit code 0). */
async function runMock(flags: MockFlags, write: Write, fail: Write): Promise<number> {
  let config: MockConfig | undefined;
  let port: number;
  let seed: number;
  try {
    port = integerFlag('port', flags.port, 0, 65_535);
    seed = integerFlag('seed', flags.seed, 0, 2 ** 32 - 1);
    // Imported only with --config: each module is startup time, and most runs use the defaults.
    if (flags.config)
      config = await (await import('../mocks/config/load-config.js')).loadConfigFile(flags.config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(`voice-kit mock: ${error.message}`);
    return 2;
  }
  let server: Awaited<ReturnType<typeof startMockServer>>;
  try {
    server = await startMockServer({
      port,
      host: flags.host,
      seed,
      cors: flags.cors !== false,
      ...(config ? { config } : {}),
    });
  } catch (error) {
    fail(`voice-kit mock: cannot listen on ${flags.host}:${port}: ${(error as Error).message}`);
    return 1;
  }
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(() => resolve(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Printed only once Ctrl-C is handled, so whoever reads the line may stop the server at once.
  const keys = server.service.config.keys.map((k) => k.key).join(', ');
  write(`voice-kit mock listening on ${server.url} (X-API-Key: ${keys}; control API: ${server.url}/__mock/)`);
  return stopped;
}

/**
 * The `voice-kit` command. `voice-kit mock [--port 4010] [--host 127.0.0.1] [--config file.json] [--seed 42] [--no-cors]`
 * runs the stateful mock; `voice-kit conformance …` hands its arguments to the conformance CLI.
 *
 * @example
 * process.exitCode = await main(['mock', '--port', '0']);
 */
export async function main(
  argv: readonly string[],
  write: Write = (line) => process.stdout.write(`${line}\n`),
  fail: Write = (line) => process.stderr.write(`${line}\n`),
): Promise<number> {
  if (argv[0] === 'conformance') {
    const { conformanceCli } = await import('./conformance.js');
    return conformanceCli(argv.slice(1), process.env);
  }
  const cli = cac('voice-kit');
  let run: Promise<number> | undefined;
  cli
    .command('mock', 'Run the stateful mock server of the voice service')
    .option('--port <port>', 'Port to listen on (0 picks a free one)', { default: 4010 })
    .option('--host <host>', 'Interface to listen on', { default: '127.0.0.1' })
    .option('--config <file>', 'JSON file with keys, limits and options (see the README)')
    .option('--seed <seed>', 'Seed of object keys, signatures and voice profiles', { default: 42 })
    .option(
      '--no-cors',
      'Answer no CORS preflights and add no CORS headers (on by default, for browser apps)',
    )
    .action((flags: MockFlags) => {
      run = runMock(flags, write, fail);
    });
  cli.command('conformance', 'Run the conformance suite against a deployment (voice-kit conformance --help)');
  cli.help();
  try {
    const parsed = cli.parse(['node', 'voice-kit', ...argv], { run: false });
    if (parsed.options.help) return 0;
    if (!cli.matchedCommand) {
      cli.outputHelp();
      return argv.length === 0 ? 0 : 2;
    }
    await cli.runMatchedCommand();
  } catch (error) {
    fail(`voice-kit: ${(error as Error).message}`);
    return 2;
  }
  return run ?? 0;
}

function isEntry(): boolean {
  const entry = process.argv[1];
  try {
    return entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `voice-kit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
