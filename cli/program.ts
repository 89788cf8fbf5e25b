/**
 * The command line of `voice-kit`: its commands and their flags, declared once with cac and read by
 * cac, strictly: a typo must end in exit 2, never in a run that quietly tested the embedded mock
 * instead of staging. cac (mri inside) reads some command lines otherwise than typed, so before cac
 * sees a command line it is checked here, token by token, against the flags cac declares:
 * - mri converts values (`--api-key 0123` → 123, `--api-key ""` → 0) and reads `--api-key -x1` as the
 *   flags -x and -1: every value reaches cac tagged, and comes back as typed. A value flag takes the
 *   next argument whatever it is, but not a `--flag`.
 * - it gives a boolean flag the argument after it (`--allow-billable false` → "false"): neither
 *   command takes arguments, so a stray one is reported here and never reaches cac.
 * - it accepts `--baseUrl` for --base-url and `--no-<flag>` for any flag, and stops at the first
 *   unknown one: flags are checked by the name typed, and every problem is reported at once.
 */
import { type CAC, type Command, cac } from 'cac';
import { didYouMean } from '../common/did-you-mean.js';
import { includeNames } from '../conformance/types.js';

type Option = Command['options'][number];
type Write = (line: string) => void;

/**
 * The variables of `voice-kit mock`: a flag wins over its variable. The conformance command leaves
 * them alone (one shell may set both commands' variables).
 */
export const mockVariables = { port: 'VOICE_KIT_PORT' } as const;

/** Put before every value so that mri keeps it a string (no flag, number or boolean starts with it). */
const tag = '\u0000';
const untag = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(untag) : typeof v === 'string' && v.startsWith(tag) ? v.slice(1) : v;

/** Both commands and their flags; `{ type: [String] }` marks a flag that may repeat (a list). */
function program(): CAC {
  const cli = cac('voice-kit');
  cli.option('-h, --help', 'Print this help');
  cli.option('-v, --version', 'Print the version of voice-kit');
  mockFlags(cli);
  conformanceFlags(cli);
  proxyFlags(cli);
  return cli;
}

function mockFlags(cli: CAC): void {
  cli
    .command('mock', 'Run the stateful mock server of the voice service')
    .option(
      '--port <port>',
      `Port to listen on, 0 picks a free one (default: ${mockVariables.port}, else 4010)`,
    )
    .option('--host <host>', 'Interface to listen on', { default: '127.0.0.1' })
    .option('--config <file>', 'JSON file with keys, limits and options (see docs/mock.md)')
    .option(
      '--profile <file>',
      'Calibration profile: answer as the deployment it was written from where the spec is silent (see docs/calibration.md; wins over the config file\'s "profile")',
    )
    .option(
      '--seed <seed>',
      'Seed of object keys, voice profiles and voice_url signatures (default: ids from 42, a random signing secret; with a seed voice_urls are reproducible and forgeable)',
    )
    .option(
      '--control-token <token>',
      'Token the control API asks for in X-Mock-Control-Token (default: none on loopback, a random one printed at start on any other host)',
    )
    .option(
      '--body-timeout <seconds>',
      'Cut a request body that sends nothing for this long with 408 (default 30)',
    )
    .option(
      '--state-dir <dir>',
      'Keep the whole state in this directory (created when missing) across restarts and kill -9 (see docs/persistence.md)',
    )
    .option(
      '--state-url <url>',
      'Keep the whole state in this PostgreSQL database, postgres://user:password@host:5432/db: mocks given the same URL are replicas of one service (see docs/replicas.md)',
    )
    .option(
      '--repair',
      'With --state-dir: start without the voices and uploads whose recording is missing or damaged, listing each on stderr (the files are moved into <dir>/damaged/)',
    )
    .option(
      '--populate <n>',
      'Start with n fake custom voices (1 to 1000, from --seed, default 1) when the mock holds none yet',
    )
    .option(
      '--allow-private-urls',
      'Fetch ref_audio URLs on loopback, private and link-local addresses, for local fixtures (refused by default)',
    )
    .option(
      '--no-cors',
      'Answer no CORS preflights and add no CORS headers (on by default, for browser apps)',
    );
}

function conformanceFlags(cli: CAC): void {
  cli
    .command('conformance', 'Run the conformance suite against a deployment, or against the embedded mock')
    .option('--base-url <url>', 'Deployment to test (default: start the embedded mock)')
    .option('--api-key <key>', 'Main API key, Voice Cloning enabled (required with --base-url)')
    .option('--key-no-clone <key>', 'A key of the same project without Voice Cloning')
    .option('--key-other-project <key>', 'A key of another project space, same organization')
    .option('--key-other-env <key>', 'A key of the same project in another API environment')
    .option('--key-other-org <key>', 'A key of another organization')
    .option(
      '--allow-billable',
      'Run cases that create voices (free uses, then charges); the variable takes 1 or 0',
    )
    .option('--include <groups>', `Opt-in groups, comma-separated: ${includeNames.join(', ')}`, {
      type: [String],
    })
    .option(
      '--only <patterns>',
      'Case id patterns, comma-separated (upload.*, *flac*); each must match a case',
      { type: [String] },
    )
    .option(
      '--reference-audio <file>',
      'A real 3–60 s recording for the positive cases, checked before the run',
    )
    .option(
      '--reference-url <url>',
      'A publicly reachable URL of a 3–60 s recording: unlocks voice-save.reference.url',
    )
    .option('--pcm-headers <a,b,c>', 'Exactly three PCM header names: sample rate, channels, bit depth')
    .option('--report-dir <dir>', 'Where the reports go (default reports/conformance)')
    .option(
      '--request-timeout <seconds>',
      'Seconds each request may take, head and body (default 30; with --explore, never past --max-time)',
    )
    .option(
      '--write-profile <file>',
      'Also write what the run observed on the spec-silent points as a calibration profile (JSON, 0600)',
    )
    .option('--list', 'Print every case id with its section and severity, then exit')
    .option('--explore', 'Explore: generated, budgeted sequences of operations instead of the cases')
    .option('--budget-chars <n>', 'With --explore: characters to synthesize at most (default 20000)')
    .option('--budget-uploads <n>', 'With --explore: upload requests at most (default 20)')
    .option(
      '--budget-creations <n>',
      'With --explore: save requests at most (0 unless --allow-billable; default then 20)',
    )
    .option(
      '--max-time <seconds>',
      'With --explore: seconds the exploration may take, shrinking included (default 90)',
    )
    .option('--seed <n>', 'With --explore: the seed of the sequences (default: a random one, printed)')
    .option(
      '--replay <file>',
      'Run a reproduction of --explore (explore-repro.json) again: exit 1 while it still deviates',
    );
}

function proxyFlags(cli: CAC): void {
  cli
    .command('proxy', 'Pass traffic to a deployment and check every exchange against the contract')
    .option('--upstream <url>', 'The deployment to pass traffic to (required)')
    .option('--port <port>', 'Port to listen on, 0 picks a free one', { default: '4020' })
    .option('--host <host>', 'Interface to listen on', { default: '127.0.0.1' })
    .option('--report-dir <dir>', 'Where the reports go when it stops', { default: 'reports/proxy' })
    .option('--pcm-headers <a,b,c>', 'Exactly three PCM header names: sample rate, channels, bit depth')
    .option('--har <file>', 'Also record the session as HAR (audio and upload bodies as side files)')
    .option(
      '--write-profile <file>',
      'When it stops, also write what the traffic showed of the spec-silent points as a profile (JSON, 0600)',
    )
    .option(
      '--keys <file>',
      'JSON: each API key → { organization, project, environment }; turns on the cross-key rules',
    )
    .option(
      '--sole-client',
      'The proxy sees all traffic to the upstream: complete-view session rules are must',
    )
    .option(
      '--shadow',
      'Also compare every exchange with the kit mock core, per scope (implies --sole-client)',
    )
    .option(
      '--max-judge-bytes <n>',
      'Bytes all exchanges in flight may keep for judging; past it, unjudged',
      {
        default: '8388608',
      },
    )
    .option(
      '--upstream-timeout <ms>',
      'How long the upstream may stay silent before a 504 or a cut (0: forever)',
      {
        default: '120000',
      },
    )
    .option(
      '--max-upstream-errors <n>',
      'Upstream errors (unreachable, timed out, cut) the session may have and still pass',
      { default: '0' },
    );
}

/** How an option is typed: `--port`, or `-h` and `--help`. */
const spellings = (o: Option) =>
  o.rawName
    .replace(/[<[].*/, '')
    .split(',')
    .map((s) => s.trim());
/** `base-url` of `--base-url <url>`. */
const flagName = (o: Option) => (spellings(o).at(-1) ?? '').replace(/^--/, '');

/** The VOICE_KIT_* variable of a conformance flag: every flag but --list and --help has one. */
export function variableOf(flag: string): string | undefined {
  return flag === 'list' || flag === 'help'
    ? undefined
    : `VOICE_KIT_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/** A command line as cac read it. */
export interface CommandLine {
  /** `mock` or `conformance`; undefined for `voice-kit` alone or `voice-kit --help`. */
  readonly command: Command | undefined;
  readonly help: boolean;
  /** cac's options (camelCase, defaults included), values as typed: a string, a string[] for a list flag, a boolean. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Unknown flags, missing or unexpected values, stray arguments, a single-value flag given twice. */
  readonly problems: readonly string[];
  /** The arguments that are neither a flag nor a flag's value (`21050` of `npm start --port 21050`). */
  readonly strays: readonly string[];
  /** The flags of the command by name (`port`), and whether each takes a value. */
  readonly flags: ReadonlyMap<string, boolean>;
}

/**
 * Read `voice-kit <command> [flags]` with cac.
 *
 * @example
 * readCommandLine(['conformance', '--api-key', '0123']).options.apiKey; // '0123'
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const cli = program();
  const command = cli.commands.find((c) => c.isMatched(argv[0] ?? ''));
  if (!command && argv[0] !== undefined && !argv[0].startsWith('-')) {
    const names = cli.commands.map((c) => c.name);
    return {
      command,
      help: false,
      options: {},
      problems: [`unknown command "${argv[0]}"${didYouMean(argv[0], names)}; commands: ${names.join(', ')}`],
      strays: [],
      flags: new Map(),
    };
  }
  const declared = [...(command?.options ?? []), ...cli.globalCommand.options];
  const bySpelling = new Map(declared.flatMap((o) => spellings(o).map((s) => [s, o] as const)));
  const known = [...bySpelling.keys()].filter((s) => s.startsWith('--'));
  const problems: string[] = [];
  const strays: string[] = [];
  const tokens = argv.slice(command ? 1 : 0);
  const guarded: string[] = command ? [command.name] : [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const next = tokens[i + 1];
    // Neither command takes arguments: cac (mri) would hand a stray one to the boolean flag before it.
    if (token === '--') {
      for (const arg of tokens.slice(i + 1))
        problems.push(`arguments after "--" are not read: ${JSON.stringify(arg)}`);
      break;
    }
    if (!/^-./.test(token)) {
      strays.push(token);
      const hint =
        /^https?:/.test(token) && known.includes('--base-url') ? ' (did you mean --base-url?)' : '';
      problems.push(`unexpected argument ${JSON.stringify(token)}${hint}`);
      continue;
    }
    const [name = token, inline] = token.split(/=(.*)/s);
    const option = bySpelling.get(name);
    if (!option) {
      problems.push(`unknown flag ${name}${didYouMean(name, known)}; known flags: ${known.join(', ')}`);
      // The value of an unknown flag (`--base-ur http://…`) is not a second problem.
      if (inline === undefined && next !== undefined && !next.startsWith('-')) i++;
    } else if (!option.required) {
      if (inline === undefined) guarded.push(name);
      else problems.push(`${name} takes no value (got ${JSON.stringify(inline)})`);
    } else if (inline !== undefined) guarded.push(`${name}=${tag}${inline}`);
    else if (next === undefined) problems.push(`${name} needs a value`);
    else if (next.startsWith('--'))
      problems.push(
        `${name} needs a value, got the flag ${next} (write ${name}=VALUE for a value starting with "--")`,
      );
    else {
      guarded.push(name, tag + next);
      i++;
    }
  }
  const { options } = cli.parse(['node', 'voice-kit', ...guarded], { run: false });
  for (const o of declared)
    if (o.required && !o.config.type && Array.isArray(options[o.name]))
      problems.push(`--${flagName(o)} is given twice`);
  const values = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, untag(v)]));
  const flags = new Map(declared.map((o) => [flagName(o), o.required === true] as const));
  return { command, help: options.help === true, options: values, problems, strays, flags };
}

const notes: Record<string, { readonly intro: readonly string[]; readonly outro: readonly string[] }> = {
  mock: {
    intro: ['Runs the stateful mock of the voice service until Ctrl-C (npm start -- [flags]).'],
    outro: [],
  },
  proxy: {
    intro: [
      'Passes every request to --upstream and its answer back, byte for byte, and checks each exchange',
      'against the contract (npm run proxy -- [flags]). Runs until Ctrl-C or SIGTERM, then writes',
      'proxy.json, proxy.junit.xml and proxy.md into --report-dir. See docs/proxy.md.',
    ],
    outro: [
      'Exit codes: 0 no must-rule violated; 1 a must-rule violated (or it could not start); 2 usage error',
      '(a flag, or a report folder or HAR path it cannot write); 3 the reports could not be written;',
      '4 upstream errors past --max-upstream-errors, or every exchange one; 130 interrupted while starting.',
    ],
  },
  conformance: {
    intro: [
      'Runs the conformance suite against --base-url, or against the embedded mock without one',
      '(npm run conformance -- [flags]). A flag wins over its variable. Unknown flags and VOICE_KIT_*',
      'variables are refused.',
    ],
    outro: [
      'Exit codes: 0 every must case passed; 1 a must case failed or errored; 2 usage error (a flag,',
      'variable, pattern or reference recording in error, a --report-dir it cannot write to, a',
      '--base-url that does not answer, or a key it refuses with 401); 3 the reports could not be',
      'written; 130 interrupted.',
    ],
  },
};

/** The help of `voice-kit`, or of its command `name`. */
export function helpText(name?: string): string {
  const cli = program();
  const command = cli.commands.find((c) => c.name === name);
  if (!command)
    return [
      'Usage: voice-kit <command> [flags]',
      '',
      ...cli.commands.map((c) => `  ${c.name.padEnd(13)} ${c.description}`),
      '',
      'voice-kit <command> --help prints the flags of a command.',
    ].join('\n');
  const options = [...command.options, ...cli.globalCommand.options];
  const withVariables = command.name === 'conformance';
  const rows = options.map((o) => {
    const variable = withVariables ? `${(variableOf(flagName(o)) ?? '').padEnd(28)} ` : '';
    const fallback = o.config.default === undefined || o.negated ? '' : ` (default: ${o.config.default})`;
    return `  ${o.rawName.padEnd(28)} ${variable}${o.description}${fallback}`;
  });
  const { intro = [], outro = [] } = notes[command.name] ?? {};
  return [`Usage: voice-kit ${command.name} [flags]`, '', ...intro, '', ...rows, '', ...outro].join('\n');
}

/** Usage problems on `write` (stderr), then exit code 2. */
export function usage(write: Write, problems: readonly string[], command?: string): number {
  for (const p of problems) write(`error: ${p}`);
  write(`see: voice-kit${command ? ` ${command}` : ''} --help`);
  return 2;
}
