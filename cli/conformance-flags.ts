/**
 * The flags of `voice-kit conformance`, their VOICE_KIT_* variables and the help text. Every flag but
 * --list and --help has a variable, so a CI job can configure a run without a command line.
 */
import { includeNames } from '../conformance/types.js';

/** `string`: one value; `list`: comma-separated values, the flag may repeat; `boolean`: no value. */
export type FlagKind = 'string' | 'list' | 'boolean';

export interface FlagSpec {
  /** The flag without dashes, as typed: `base-url`. */
  readonly name: string;
  readonly kind: FlagKind;
  /** The placeholder of the value in the help: `<url>`. */
  readonly value?: string;
  readonly env?: string;
  readonly help: string;
}

export const flagSpecs: readonly FlagSpec[] = [
  {
    name: 'base-url',
    kind: 'string',
    value: '<url>',
    env: 'VOICE_KIT_BASE_URL',
    help: 'Deployment to test (default: start the embedded mock)',
  },
  {
    name: 'api-key',
    kind: 'string',
    value: '<key>',
    env: 'VOICE_KIT_API_KEY',
    help: 'Main API key, Voice Cloning enabled (required with --base-url)',
  },
  {
    name: 'key-no-clone',
    kind: 'string',
    value: '<key>',
    env: 'VOICE_KIT_KEY_NO_CLONE',
    help: 'A key of the same project without Voice Cloning',
  },
  {
    name: 'key-other-project',
    kind: 'string',
    value: '<key>',
    env: 'VOICE_KIT_KEY_OTHER_PROJECT',
    help: 'A key of another project space, same organization',
  },
  {
    name: 'key-other-env',
    kind: 'string',
    value: '<key>',
    env: 'VOICE_KIT_KEY_OTHER_ENV',
    help: 'A key of the same project in another API environment',
  },
  {
    name: 'key-other-org',
    kind: 'string',
    value: '<key>',
    env: 'VOICE_KIT_KEY_OTHER_ORG',
    help: 'A key of another organization',
  },
  {
    name: 'allow-billable',
    kind: 'boolean',
    env: 'VOICE_KIT_ALLOW_BILLABLE',
    help: 'Run cases that create voices (free uses, then charges); the variable takes 1 or 0',
  },
  {
    name: 'include',
    kind: 'list',
    value: '<groups>',
    env: 'VOICE_KIT_INCLUDE',
    help: `Opt-in groups, comma-separated: ${includeNames.join(', ')}`,
  },
  {
    name: 'only',
    kind: 'list',
    value: '<patterns>',
    env: 'VOICE_KIT_ONLY',
    help: 'Case id patterns, comma-separated (upload.*, *flac*); each must match a case',
  },
  {
    name: 'reference-audio',
    kind: 'string',
    value: '<file>',
    env: 'VOICE_KIT_REFERENCE_AUDIO',
    help: 'A real 3–60 s recording for the positive cases, checked before the run',
  },
  {
    name: 'reference-url',
    kind: 'string',
    value: '<url>',
    env: 'VOICE_KIT_REFERENCE_URL',
    help: 'A publicly reachable URL of a 3–60 s recording: unlocks voice-save.reference.url',
  },
  {
    name: 'pcm-headers',
    kind: 'string',
    value: '<a,b,c>',
    env: 'VOICE_KIT_PCM_HEADERS',
    help: 'Exactly three PCM header names: sample rate, channels, bit depth',
  },
  {
    name: 'report-dir',
    kind: 'string',
    value: '<dir>',
    env: 'VOICE_KIT_REPORT_DIR',
    help: 'Where the reports go (default reports/conformance)',
  },
  { name: 'list', kind: 'boolean', help: 'Print every case id with its section and severity, then exit' },
  { name: 'help', kind: 'boolean', help: 'Print this help' },
];

/** The variables a run reads; any other VOICE_KIT_* variable is a typo. */
export const knownVariables: readonly string[] = flagSpecs.flatMap((f) => (f.env ? [f.env] : []));

/** The help text of `voice-kit conformance --help`. */
export function helpText(): string {
  const rows = flagSpecs.map((f) => {
    const flag = `${f.name === 'help' ? '-h, ' : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`;
    return `  ${flag.padEnd(28)} ${(f.env ?? '').padEnd(28)} ${f.help}`;
  });
  return [
    'Usage: voice-kit conformance [flags]      (npm run conformance -- [flags])',
    '',
    'Runs the conformance suite against --base-url, or against the embedded mock without one.',
    'A flag wins over its variable. Unknown flags and VOICE_KIT_* variables are refused.',
    '',
    ...rows,
    '',
    'Exit codes: 0 every must case passed; 1 a must case failed or errored; 2 usage error (a flag,',
    'variable, pattern or reference recording in error, or a --base-url that does not answer);',
    '130 interrupted.',
  ].join('\n');
}
