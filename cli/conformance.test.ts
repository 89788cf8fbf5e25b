import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from './conformance.js';

const url = 'https://staging.example.com';

/** The problems of a command line, or [] when it parses. */
function problemsOf(argv: readonly string[], env: Record<string, string> = {}): readonly string[] {
  try {
    parseCliArgs(argv, env);
    return [];
  } catch (e) {
    if (e instanceof UsageError) return e.problems;
    throw e;
  }
}

describe('conformance CLI arguments: every mistake is a usage error (exit 2), never a quiet run', () => {
  it.each([
    // 1. unknown flags, with the flag and the known ones named
    [
      ['--base-ur', url],
      {},
      /unknown flag --base-ur \(did you mean --base-url\?\); known flags: --base-url, --api-key/,
    ],
    [['--allow-billabel'], {}, /unknown flag --allow-billabel \(did you mean --allow-billable\?\)/],
    [['--BASE-URL', url], {}, /unknown flag --BASE-URL/],
    [['--base_url', url], {}, /unknown flag --base_url/],
    [['--baseUrl', url], {}, /unknown flag --baseUrl/],
    [['--no-allow-billable'], {}, /unknown flag --no-allow-billable/],
    [['-x'], {}, /unknown flag -x/],
    [[url], {}, /unexpected argument "https:\/\/staging.example.com" \(did you mean --base-url\?\)/],
    [['--', '--base-url', url], {}, /arguments after "--" are not read/],
    [['--base-url'], {}, /--base-url needs a value/],
    [['--base-url', '--api-key', 'k'], {}, /--base-url needs a value, got the flag --api-key/],
    [['--only'], {}, /--only needs a value/],
    [['--allow-billable=yes'], {}, /--allow-billable takes no value/],
    [['--allow-billable', 'false'], {}, /unexpected argument "false"/],
    [['--base-url', url, '--base-url', url, '--api-key', 'k'], {}, /--base-url is given twice/],
    // 1. unknown VOICE_KIT_* variables
    [
      [],
      { VOICE_KIT_BASEURL: url },
      /unknown variable VOICE_KIT_BASEURL \(did you mean VOICE_KIT_BASE_URL\?\)/,
    ],
    [[], { voice_kit_base_url: url }, /unknown variable voice_kit_base_url/],
    [[], { VOICE_KIT_ALLOW_BILLABLE: 'maybe' }, /VOICE_KIT_ALLOW_BILLABLE="maybe" is neither 1 nor 0/],
    // 2. keys without a base URL
    [
      ['--api-key', 'k'],
      {},
      /^--api-key was given but no --base-url: pass --base-url \(VOICE_KIT_BASE_URL\) to test a deployment, or omit the keys to test the embedded mock$/,
    ],
    [['--key-other-org', 'k'], {}, /^--key-other-org was given but no --base-url/],
    [[], { VOICE_KIT_API_KEY: 'k' }, /^VOICE_KIT_API_KEY was given but no --base-url/],
    [[], { VOICE_KIT_KEY_NO_CLONE: 'k' }, /^VOICE_KIT_KEY_NO_CLONE was given but no --base-url/],
    // The base URL itself: an unset CI secret, a missing scheme
    [[], { VOICE_KIT_BASE_URL: '', VOICE_KIT_API_KEY: 'k' }, /^VOICE_KIT_BASE_URL is empty/],
    [['--base-url', 'staging.example.com', '--api-key', 'k'], {}, /is not an http\(s\) URL/],
    // 6. --pcm-headers: exactly three names
    [['--pcm-headers', 'A,B'], {}, /--pcm-headers needs exactly three comma-separated header names/],
    [['--pcm-headers', 'A,B,C,D'], {}, /needs exactly three/],
    [['--pcm-headers', 'A,,C'], {}, /needs exactly three/],
    [['--pcm-headers', 'A,B C,D'], {}, /needs exactly three/],
    [[], { VOICE_KIT_PCM_HEADERS: 'X-Rate' }, /^VOICE_KIT_PCM_HEADERS needs exactly three/],
    // 8. --base-url without a key
    [['--base-url', url], {}, /^--api-key \(or VOICE_KIT_API_KEY\) is required with --base-url$/],
    [['--base-url', url, '--api-key', ''], {}, /--api-key \(or VOICE_KIT_API_KEY\) is required/],
    [[], { VOICE_KIT_BASE_URL: url }, /is required with VOICE_KIT_BASE_URL/],
    [['--include', 'everything'], {}, /unknown --include group\(s\): everything/],
  ] as const)('%j %j → %s', (argv, env, problem) => {
    const problems = problemsOf(argv, env);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });

  it("leaves the mock's VOICE_KIT_PORT alone (one shell may set both commands' variables)", () => {
    expect(problemsOf([], { VOICE_KIT_PORT: '4020' })).toEqual([]);
  });

  it.each(['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1/'])(
    'a base URL with the version prefix (%s) is one problem that says to drop /v1',
    (base) => {
      for (const [argv, env] of [
        [['--base-url', base, '--api-key', 'k'], {}],
        [[], { VOICE_KIT_BASE_URL: base, VOICE_KIT_API_KEY: 'k' }],
      ] as const) {
        const problems = problemsOf(argv, env);
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(
          /^(--base-url|VOICE_KIT_BASE_URL) ends in \/v1\b.*drop it: http:\/\/127\.0\.0\.1:4010$/,
        );
      }
    },
  );

  it('reports every problem at once', () => {
    expect(problemsOf(['--base-ur', url, '--pcm-headers', 'a'], { VOICE_KIT_ONLYY: 'x' })).toHaveLength(3);
  });

  it.each([
    [[], {}, { keys: {}, only: [] }],
    [['--base-url', url, '--api-key', '0123'], {}, { baseUrl: url, apiKey: '0123' }],
    [['--base-url', url, '--api-key', '-x1'], {}, { apiKey: '-x1' }],
    [['--base-url', url, '--api-key=--k'], {}, { apiKey: '--k' }],
    [[], { VOICE_KIT_BASE_URL: url, VOICE_KIT_API_KEY: 'k', VOICE_KIT_KEY_OTHER_ORG: '' }, { keys: {} }],
    [
      ['--base-url', url],
      { VOICE_KIT_API_KEY: 'env', VOICE_KIT_BASE_URL: 'http://other' },
      { baseUrl: url, apiKey: 'env' },
    ],
    [['--only', 'upload.*', '--only', 'list.*,delete.*'], {}, { only: ['upload.*', 'list.*', 'delete.*'] }],
    [['--allow-billable'], { VOICE_KIT_ALLOW_BILLABLE: '0' }, { allowBillable: true }],
    [[], { VOICE_KIT_ALLOW_BILLABLE: 'yes' }, { allowBillable: true }],
    [[], { VOICE_KIT_ALLOW_BILLABLE: '0' }, { only: [] }],
    [['--pcm-headers', 'A, B ,C'], {}, { pcmHeaders: { sampleRate: 'A', channels: 'B', bitDepth: 'C' } }],
    [[], { VOICE_KIT_INCLUDE: 'rate-limit,large-upload' }, { include: ['rate-limit', 'large-upload'] }],
  ] as const)('%j %j → options %j', (argv, env, expected) => {
    expect(parseCliArgs(argv, env).options).toMatchObject(expected);
  });

  it('no flags and no variables: the embedded mock, everything default', () => {
    const request = parseCliArgs([], { PATH: '/usr/bin', VOICE_KITCHEN: 'not ours' });
    expect(request.options.baseUrl).toBeUndefined();
    expect(request.options.allowBillable).toBeUndefined();
    expect(request.reportDir).toBe('reports/conformance');
  });

  it('names the source of a value, flag or variable, for later messages', () => {
    const request = parseCliArgs(['--only', 'upload.*'], { VOICE_KIT_REFERENCE_AUDIO: 'voice.wav' });
    expect(request.sourceOf).toMatchObject({ only: '--only', referenceAudio: 'VOICE_KIT_REFERENCE_AUDIO' });
  });

  it('--help and -h win over every other problem; --list is read', () => {
    expect(parseCliArgs(['--base-ur', 'x', '-h'], { VOICE_KIT_X: '1' }).help).toBe(true);
    expect(parseCliArgs(['--list'], {}).list).toBe(true);
  });
});
