import { describe, expect, it } from 'vitest';
import { ProfileError, parseProfile, parseProfileText } from './parse.js';
import { pointIds } from './points.js';
import { everyPoint, everyPointProfile } from './test/every-point.js';

const profile = (points: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'voice-kit-profile',
  version: 1,
  points,
  ...extra,
});

const entry = (question: string, choice: unknown) => ({ question, choice });

/** The one-line message parseProfile throws for `value`. */
function refusal(value: unknown): string {
  try {
    parseProfile(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('accepted');
}

const all = everyPointProfile();

describe('parseProfile', () => {
  it('reads a choice for every point of the catalogue', () => {
    expect(Object.keys(everyPoint).sort()).toEqual([...pointIds].sort());
    const parsed = parseProfile(all);
    expect(Object.keys(parsed.points).sort()).toEqual([...pointIds].sort());
    expect(parsed.points['list-order']?.choice).toEqual({ order: 'newest-first' });
  });

  it('reads evidence and observed, and leaves unsettled out', () => {
    const evidence = [
      { exchange: 12, method: 'GET', path: '/v1/voice/list', status: 200, case: 'list.order' },
    ];
    const parsed = parseProfile(
      profile(
        { 'list-order': { question: 'list-order', choice: { order: 'oldest-first' }, evidence } },
        {
          observed: {
            by: 'conformance',
            target: 'https://staging',
            at: '2026-11-25T00:00:00Z',
            kit: '0.2.0',
          },
          unsettled: [
            {
              point: 'text-alias',
              choices: [{ accepted: true }, { accepted: false }],
              evidence: [
                { exchange: 3, method: 'POST', path: '/v1/text-to-speech', status: 200 },
                { exchange: 4, method: 'POST', path: '/v1/text-to-speech', status: 400 },
              ],
            },
          ],
        },
      ),
    );
    expect(parsed.points['list-order']?.evidence).toEqual(evidence);
    expect(parsed.observed?.by).toBe('conformance');
    expect('unsettled' in parsed).toBe(false);
  });

  it.each([
    [{ ...all, kind: 'other' }, 'kind: expected "voice-kit-profile", got "other"'],
    [{ ...all, version: 2 }, 'version: 2 is not a version this kit reads (1)'],
    [[], 'profile: expected an object, got []'],
    [{ ...all, extra: 1 }, 'profile.extra: unknown field'],
    [profile({}, { points: undefined }), 'points: missing'],
    [
      profile({ 'list-ordr': entry('list-order', { order: 'newest-first' }) }),
      'points["list-ordr"]: unknown point (did you mean "list-order"?)',
    ],
    [
      profile({ 'list-order': entry('list-order', { order: 'random' }) }),
      'points["list-order"].choice.order: "random" is not one of oldest-first, newest-first',
    ],
    [
      profile({ 'list-order': entry('list', { order: 'newest-first' }) }),
      'points["list-order"].question: "list" is not the question of this point ("list-order")',
    ],
    [
      profile({ 'list-order': { choice: { order: 'newest-first' } } }),
      'points["list-order"].question: missing',
    ],
    [
      profile({ 'list-order': entry('list-order', { order: 'newest-first', why: 1 }) }),
      'points["list-order"].choice.why: unknown field',
    ],
    [
      profile({
        'page-size-out-of-range': entry('page-size-out-of-range', { status: 429, error_code: 10001 }),
      }),
      'points["page-size-out-of-range"].choice.status: 429 is a rate limit',
    ],
    [
      profile({
        'page-size-out-of-range': entry('page-size-out-of-range', { status: 500, error_code: 10001 }),
      }),
      'points["page-size-out-of-range"].choice.status: expected an integer from 400 to 499, got 500',
    ],
    [
      profile({ 'page-size-out-of-range': entry('page-size-out-of-range', { status: 400, error_code: 0 }) }),
      'points["page-size-out-of-range"].choice.error_code: expected an integer from 1',
    ],
    [
      profile({
        'page-size-out-of-range': entry('page-size-out-of-range', { status: 400.5, error_code: 1 }),
      }),
      '.choice.status: expected an integer from 400 to 499, got 400.5',
    ],
    [
      profile({ 'voice-save-statuses/20016': entry('voice-save-statuses', { status: 200 }) }),
      'points["voice-save-statuses/20016"].choice.status: expected an integer from 400 to 499, got 200',
    ],
    [
      profile({
        'voice-save-statuses/20016': entry('voice-save-statuses', { status: 422, error_code: 20016 }),
      }),
      '.choice.error_code: unknown field',
    ],
    [
      profile({
        'pcm-header-names': entry('pcm-header-names', { sampleRate: 'X Rate', channels: 'a', bitDepth: 'b' }),
      }),
      'points["pcm-header-names"].choice.sampleRate: "X Rate" is not a valid HTTP header name',
    ],
    [
      profile({
        'pcm-header-names': entry('pcm-header-names', { sampleRate: 'a', channels: 'A', bitDepth: 'b' }),
      }),
      'the three header names must differ',
    ],
    [
      profile({ 'default-audio-format': entry('default-audio-format', { complete: 'flac' }) }),
      'choice.complete: "flac" is not one of wav, pcm, mp3',
    ],
    [
      profile({ 'default-audio-format': entry('default-audio-format', {}) }),
      'expected complete, stream or both',
    ],
    [
      profile({ 'max-text-length': entry('max-text-length', { characters: 1_000_001 }) }),
      'choice.characters: expected an integer from 1 to 1000000',
    ],
    [
      profile({ 'max-text-length': entry('max-text-length', { characters: 0 }) }),
      'choice.characters: expected an integer from 1 to 1000000',
    ],
    [
      profile({ 'text-alias': entry('text-alias', { accepted: 'yes' }) }),
      'choice.accepted: expected true or false',
    ],
    [
      profile({ 'upload-retry-after': entry('upload-retry-after', 'no') }),
      'points["upload-retry-after"].choice: expected an object',
    ],
    [
      profile({
        'reference-duration-boundaries': entry('reference-duration-boundaries', { shortest: 'open' }),
      }),
      'choice.shortest: "open" is not one of inclusive, exclusive',
    ],
    [
      profile({ 'voice-save-data': entry('voice-save-data', {}) }),
      'points["voice-save-data"].choice.data: missing',
    ],
    [
      profile({ 'voice-save-data': entry('voice-save-data', { data: 'saved' }) }),
      'points["voice-save-data"].choice.data: expected an object or null (§2.1), got "saved"',
    ],
    [
      profile({
        'voice-save-data': entry('voice-save-data', {
          data: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`),
        }),
      }),
      'points["voice-save-data"].choice.data: nested deeper than 32 levels',
    ],
    [
      profile({ 'voice-save-data': entry('voice-save-data', { data: { text: 'x'.repeat(70_000) } }) }),
      'points["voice-save-data"].choice.data: 70011 characters of JSON; a data choice holds at most 65536',
    ],
    [
      profile({ 'delete-response-body/missing': entry('delete-response-body', { status: 204 }) }),
      'choice.error_code: missing',
    ],
    [
      profile({
        'list-order': { ...entry('list-order', { order: 'newest-first' }), evidence: [{ exchange: 1 }] },
      }),
      'points["list-order"].evidence[0].method: missing',
    ],
  ])('refuses %j with one line naming the field', (value, message) => {
    expect(refusal(value)).toContain(message);
  });

  it('accepts a missing delete answered with success, and data null', () => {
    const parsed = parseProfile(
      profile({
        'delete-response-body/missing': entry('delete-response-body', { status: 200 }),
        'delete-response-body': entry('delete-response-body', { data: null }),
      }),
    );
    expect(parsed.points['delete-response-body/missing']?.choice).toEqual({ status: 200 });
    expect(parsed.points['delete-response-body']?.choice).toEqual({ data: null });
  });
});

describe('parseProfileText', () => {
  it('gives a JSON syntax error with its position', () => {
    expect(() => parseProfileText('{"kind": "voice-kit-profile",\n "version": 1,,}')).toThrow(
      /^not JSON: .*(position|line|column) \d+/,
    );
  });

  it('gives a syntax error on one line, whatever the text around it holds', () => {
    let message = '';
    try {
      parseProfileText('nul\n\n\u001b[31mred\n');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^not JSON: /);
    expect(message).not.toContain('\n');
    expect(message).not.toContain('\u001b');
  });

  it('reads a profile text', () => {
    expect(parseProfileText(JSON.stringify(all)).points['text-alias']?.choice).toEqual({ accepted: true });
  });
});

describe('parseProfile within bounds', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deepValue = (n: number) => {
    let v: unknown = [];
    for (let i = 0; i < n; i += 1) v = [v];
    return v;
  };

  it.each([
    ['points', (d: string) => `{"kind":"voice-kit-profile","version":1,"points":${d}}`],
    ['unsettled', (d: string) => `{"kind":"voice-kit-profile","version":1,"points":{},"unsettled":${d}}`],
    ['the whole file', (d: string) => d],
    [
      'a data choice',
      (d: string) =>
        `{"kind":"voice-kit-profile","version":1,"points":{"voice-save-data":{"question":"voice-save-data","choice":{"data":{"x":${d}}}}}}`,
    ],
  ])('refuses text nested 10,000 deep in %s in one line, before anything recurses', (_where, wrap) => {
    expect(() => parseProfileText(wrap(deep(10_000)))).toThrow(/^nested deeper than 48 levels$/);
  });

  it('refuses a value nested 100,000 deep (unsettled, points) in one line', () => {
    expect(refusal(profile({}, { unsettled: deepValue(100_000) }))).toBe(
      'profile: nested deeper than 48 levels',
    );
    expect(refusal(profile(deepValue(10_000) as Record<string, unknown>))).toBe(
      'profile: nested deeper than 48 levels',
    );
  });

  it('checks every field of unsettled', () => {
    const ok = { point: 'text-alias', choices: [{ accepted: true }], evidence: [] };
    expect(refusal(profile({}, { unsettled: [[[[]]]] }))).toMatch(/^unsettled\[0\]: expected an object/);
    expect(refusal(profile({}, { unsettled: [{ ...ok, point: 'nowhere' }] }))).toMatch(
      /^unsettled\[0\]\.point: unknown point "nowhere"$/,
    );
    expect(refusal(profile({}, { unsettled: [{ ...ok, choices: [[1]] }] }))).toMatch(
      /^unsettled\[0\]\.choices\[0\]: expected an object/,
    );
    expect(refusal(profile({}, { unsettled: [{ ...ok, evidence: [{ exchange: 1 }] }] }))).toMatch(
      /^unsettled\[0\]\.evidence\[0\]\.method: missing$/,
    );
    expect(refusal(profile({}, { unsettled: [{ ...ok, extra: 1 }] }))).toMatch(
      /unsettled\[0\]\.extra: unknown field/,
    );
    expect(refusal(profile({}, { unsettled: Array(65).fill(ok) }))).toBe('unsettled: 65 items; at most 64');
    expect(() => parseProfile(profile({}, { unsettled: [ok] }))).not.toThrow();
  });
});

describe('pcm-header-names is never a header HTTP gives a meaning', () => {
  const pcm = (names: Record<string, string>) =>
    profile({
      'pcm-header-names': entry('pcm-header-names', {
        sampleRate: 'X-Sample-Rate',
        channels: 'X-Channels',
        bitDepth: 'X-Bits',
        ...names,
      }),
    });

  it.each([
    'Content-Length',
    'transfer-encoding',
    'Content-Type',
    'Connection',
    'Keep-Alive',
    'Upgrade',
    'TE',
    'Trailer',
    'Proxy-Connection',
    'Proxy-Anything',
    'Set-Cookie',
    'Cookie',
    'Access-Control-Allow-Origin',
    'Access-Control-Expose-Headers',
    'Host',
    'Content-Encoding',
    'Content-Range',
    'X-API-Key',
  ])('refuses %s in one line naming the field', (name) => {
    expect(refusal(pcm({ channels: name }))).toMatch(
      new RegExp(
        `^points\\["pcm-header-names"\\]\\.choice\\.channels: "${name}" .*; a PCM header needs a name of its own`,
      ),
    );
  });

  it.each(['X Rate', 'X-Rate:', 'X-Rate\r\nContent-Length', ''])('refuses %j, not an HTTP token', (name) => {
    expect(refusal(pcm({ bitDepth: name }))).toMatch(/is not a valid HTTP header name$/);
  });

  it('accepts names of its own', () => {
    expect(parseProfile(pcm({})).points['pcm-header-names']?.choice).toEqual({
      sampleRate: 'X-Sample-Rate',
      channels: 'X-Channels',
      bitDepth: 'X-Bits',
    });
  });
});
