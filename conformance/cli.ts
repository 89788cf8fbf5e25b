/**
 * `voice-kit conformance` / `npm run conformance`: run the suite and write the reports.
 * Exit 0 when every must case passed, 1 when one failed, 2 on a usage error, 130 after Ctrl-C.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cac } from 'cac';
import { type RunOptions, runConformance } from './index.js';
import { terminalProgress, terminalSummary } from './reporters/terminal.js';
import { writeReports } from './reporters/write-reports.js';
import { type IncludeName, includeNames } from './types.js';

/** Every flag, its env variable and its help. */
const flags = [
  ['--base-url <url>', 'VOICE_KIT_BASE_URL', 'Deployment to test (default: start the embedded mock)'],
  ['--api-key <key>', 'VOICE_KIT_API_KEY', 'Main API key (Voice Cloning enabled)'],
  ['--key-no-clone <key>', 'VOICE_KIT_KEY_NO_CLONE', 'A key of the same project without Voice Cloning'],
  [
    '--key-other-project <key>',
    'VOICE_KIT_KEY_OTHER_PROJECT',
    'A key of another project space, same organization',
  ],
  [
    '--key-other-env <key>',
    'VOICE_KIT_KEY_OTHER_ENV',
    'A key of the same project in another API environment',
  ],
  ['--key-other-org <key>', 'VOICE_KIT_KEY_OTHER_ORG', 'A key of another organization'],
  ['--allow-billable', 'VOICE_KIT_ALLOW_BILLABLE', 'Run cases that create voices (free uses, then charges)'],
  ['--include <groups>', 'VOICE_KIT_INCLUDE', `Opt-in groups, comma-separated: ${includeNames.join(', ')}`],
  ['--only <patterns>', 'VOICE_KIT_ONLY', 'Case id patterns, comma-separated (upload.*, *flac*)'],
  ['--reference-audio <file>', 'VOICE_KIT_REFERENCE_AUDIO', 'A real 3–60 s recording for positive cases'],
  ['--pcm-headers <names>', 'VOICE_KIT_PCM_HEADERS', 'PCM header names: sample-rate,channels,bit-depth'],
  ['--report-dir <dir>', 'VOICE_KIT_REPORT_DIR', 'Where the reports go (default reports/conformance)'],
] as const;

type Env = Readonly<Record<string, string | undefined>>;

const list = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const truthy = (v: unknown) => v === true || /^(1|true|yes|on)$/i.test(String(v ?? ''));

/** Flags win over env variables; cac camel-cases `--key-no-clone` to `keyNoClone`. */
function resolve(parsed: Record<string, unknown>, env: Env): { options: RunOptions; reportDir: string } {
  const get = (flag: string) => {
    const entry = flags.find(([f]) => f.startsWith(`--${flag} `) || f === `--${flag}`);
    const camel = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const v = parsed[camel];
    return v !== undefined && v !== false ? v : entry ? env[entry[1]] : undefined;
  };
  const str = (flag: string) => {
    const v = get(flag);
    return v === undefined || v === true ? undefined : String(v);
  };
  const include = list(get('include'));
  const unknown = include.filter((i) => !includeNames.includes(i as IncludeName));
  if (unknown.length > 0) throw new UsageError(`unknown --include group(s): ${unknown.join(', ')}`);
  const keys = {
    ...(str('key-no-clone') ? { noClone: str('key-no-clone') } : {}),
    ...(str('key-other-project') ? { otherProject: str('key-other-project') } : {}),
    ...(str('key-other-env') ? { otherEnv: str('key-other-env') } : {}),
    ...(str('key-other-org') ? { otherOrg: str('key-other-org') } : {}),
  };
  const baseUrl = str('base-url');
  if (baseUrl && !str('api-key'))
    throw new UsageError('--api-key (or VOICE_KIT_API_KEY) is required with --base-url');
  const pcm = list(get('pcm-headers'));
  const options: RunOptions = {
    ...(baseUrl ? { baseUrl } : {}),
    ...(str('api-key') ? { apiKey: str('api-key') } : {}),
    keys,
    ...(truthy(get('allow-billable')) ? { allowBillable: true } : {}),
    ...(include.length > 0 ? { include: include as IncludeName[] } : {}),
    only: list(get('only')),
    ...(str('reference-audio') ? { referenceAudio: str('reference-audio') } : {}),
    ...(pcm.length === 3 ? { pcmHeaders: { sampleRate: pcm[0], channels: pcm[1], bitDepth: pcm[2] } } : {}),
  };
  return { options, reportDir: str('report-dir') ?? 'reports/conformance' };
}

class UsageError extends Error {}

/**
 * Run the CLI with explicit argv and env; resolves with the exit code.
 *
 * @example
 * process.exitCode = await conformanceCli(['--base-url', url, '--api-key', key], process.env);
 */
export async function conformanceCli(
  argv: readonly string[],
  env: Env,
  write: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  const cli = cac('voice-kit conformance');
  for (const [flag, envName, help] of flags) cli.option(flag, `${help} [${envName}]`);
  cli.help();
  const parsed = cli.parse(['node', 'conformance', ...argv], { run: false });
  if (parsed.options.help) return 0;
  let resolved: ReturnType<typeof resolve>;
  try {
    resolved = resolve(parsed.options, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    write(`error: ${e.message}`);
    return 2;
  }
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
    const run = await runConformance({
      ...resolved.options,
      signal: controller.signal,
      onProgress: terminalProgress(write),
    });
    write(terminalSummary(run));
    const paths = await writeReports(run, resolved.reportDir);
    write(`reports: ${paths.join(', ')}`);
    if (run.aborted) return 130;
    return run.ok ? 0 : 1;
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
