import { describe, expect, it } from 'vitest';
import { synthesizeToBytes, systemVoices } from '../../audio/index.js';
import type { Analysis, AnalysisAccepted } from '../../audio/types.js';
import { errors } from '../../openapi/contract.js';
import { ProfileError } from '../../profile/parse.js';
import { everyPoint, everyPointProfile } from '../../profile/test/every-point.js';
import type { AudioEngine } from './context.js';
import { createMockService, type MockService } from './service.js';

const reference = synthesizeToBytes({
  text: 'This is my reference voice, recorded for cloning. It is long enough.',
  voice: systemVoices[0] as (typeof systemVoices)[0],
  format: 'wav',
});

/** The real engine, but the analysis answers by the file name: `long.wav` is too long, `exact3.wav` 3.0 s. */
async function namedAudio(): Promise<AudioEngine> {
  const audio = await import('../../audio/index.js');
  const accepted = (await audio.analyze(reference)) as AnalysisAccepted;
  const refused = (verdict: Extract<Analysis, { ok: false }>['verdict']): Analysis => ({
    ok: false,
    verdict,
    reason: `refused: ${verdict}`,
    container: 'wav',
  });
  const byName: Record<string, Analysis> = {
    'large.wav': refused('too-large'),
    'bad.wav': refused('unsupported'),
    'long.wav': refused('too-long'),
    'short.wav': refused('too-short'),
    'pause.wav': refused('pause-too-long'),
    'exact3.wav': { ...accepted, durationSeconds: 3 },
    'exact60.wav': { ...accepted, durationSeconds: 60 },
    'exact3.mp3': { ...accepted, container: 'mp3', durationSeconds: 3 },
    'exact60.mp3': { ...accepted, container: 'mp3', durationSeconds: 60 },
  };
  return { ...audio, analyze: async (_bytes, options) => byName[options?.fileName ?? ''] ?? accepted };
}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answer data by path
  body: any;
}

const call = async (service: MockService, path: string, init: RequestInit = {}, key = 'mock-key') => {
  const res = await service.fetch(
    new Request(`http://mock.test${path}`, { ...init, headers: { 'X-API-Key': key, ...init.headers } }),
  );
  const type = res.headers.get('content-type') ?? '';
  const body = type.includes('json') ? await res.json() : new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body } as Answer;
};

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function upload(service: MockService, name = 'r.wav', key = 'mock-key'): Promise<Answer> {
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([reference.slice()]), name);
  return call(service, '/v1/files/upload', { method: 'POST', body: form }, key);
}

async function save(service: MockService, voice_id: string, file = 'r.wav', key = 'mock-key') {
  const uploaded = await upload(service, file);
  return call(service, '/v1/voice/save', json({ voice_id, ref_audio: uploaded.body.data.object_key }), key);
}

const speak = (service: MockService, body: Record<string, unknown>, stream = false) =>
  call(service, `/v1/text-to-speech${stream ? '/stream' : ''}`, json(body));

async function serviceWith(profile?: unknown, config = {}, validateResponses = true): Promise<MockService> {
  return createMockService({
    audio: await namedAudio(),
    validateResponses,
    logger: { error: () => {} },
    config,
    ...(profile === undefined ? {} : { profile }),
  });
}

/** One probe per refusal point: the request that meets it, and the catalogue entry the mock answers with. */
const refusalProbes: Record<
  string,
  { error: keyof typeof errors; probe: (s: MockService) => Promise<Answer> }
> = {
  'voice-save-statuses/10018': {
    error: 'voiceIdTaken',
    probe: async (s) => {
      await save(s, 'twice');
      return save(s, 'twice');
    },
  },
  'voice-save-statuses/20010': { error: 'refAudioTooLarge', probe: (s) => save(s, 'a', 'large.wav') },
  'voice-save-statuses/20012': { error: 'refAudioUnsupported', probe: (s) => save(s, 'a', 'bad.wav') },
  'voice-save-statuses/20015': { error: 'refAudioTooLong', probe: (s) => save(s, 'a', 'long.wav') },
  'voice-save-statuses/20016': { error: 'refAudioTooShort', probe: (s) => save(s, 'a', 'short.wav') },
  'voice-save-statuses/20017': { error: 'refAudioPauseTooLong', probe: (s) => save(s, 'a', 'pause.wav') },
  'voice-id-invalid-characters': {
    error: 'voiceIdInvalid',
    probe: (s) => call(s, '/v1/voice/save', json({ voice_id: 'no spaces!', ref_audio: 'x' })),
  },
  'ref-audio-not-accessible': {
    error: 'refAudioNotAccessible',
    probe: (s) => call(s, '/v1/voice/save', json({ voice_id: 'b', ref_audio: 'obj_unknown' })),
  },
  'voice-cloning-disabled-error': {
    error: 'voiceCloningDisabled',
    probe: (s) => call(s, '/v1/voice/save', json({ voice_id: 'c', ref_audio: 'x' }), 'mock-key-no-clone'),
  },
  'page-size-out-of-range': {
    error: 'pageSizeOutOfRange',
    probe: (s) => call(s, '/v1/voice/list?page_size=99'),
  },
  'list-errors/unknown-cursor': {
    error: 'invalidCursor',
    probe: (s) => call(s, '/v1/voice/list?voice_id=nobody'),
  },
  'delete-refused-status': {
    error: 'systemVoiceNotDeletable',
    probe: (s) => call(s, '/v1/voice/system_default', { method: 'DELETE' }),
  },
  'max-text-length/refusal': {
    error: 'textTooLong',
    probe: (s) => speak(s, { generate_text: 'a'.repeat(10_001) }),
  },
  'synthesis-errors/unknown-voice': {
    error: 'unknownVoice',
    probe: (s) => speak(s, { generate_text: 'hi', voice_id: 'nobody' }),
  },
  'synthesis-errors/missing-text': {
    error: 'textMissing',
    probe: (s) => speak(s, { voice_id: 'system_default' }),
  },
  'synthesis-errors/negative-speed': {
    error: 'speedNegative',
    probe: (s) => speak(s, { generate_text: 'hi', speed: -1 }),
  },
  'allowed-options/refusal': {
    error: 'unsupportedOption',
    probe: (s) => speak(s, { generate_text: 'hi', language: 'xx' }),
  },
  'general-errors/malformed-json': {
    error: 'invalidRequest',
    probe: (s) =>
      call(s, '/v1/text-to-speech', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"generate_text":',
      }),
  },
  'general-errors/unknown-path': { error: 'routeNotFound', probe: (s) => call(s, '/v1/nowhere') },
  'general-errors/wrong-method': {
    error: 'methodNotAllowed',
    probe: (s) => call(s, '/v1/voice/list', { method: 'PUT' }),
  },
};

describe('a profile calibrates every refusal point', () => {
  it.each(Object.entries(refusalProbes))('%s', async (id, { error, probe }) => {
    const choice = everyPoint[id] as { status: number; error_code?: number };
    const entry = errors[error];
    expect(choice.status, 'the test profile must differ from the mock').not.toBe(entry.status);
    // Only the profile's size limit is in the probe of the text length: a profile without it.
    const profiled = await serviceWith(everyPointProfile());
    const own = await serviceWith();
    const [withProfile, without] = [await probe(profiled), await probe(own)];
    expect([withProfile.status, withProfile.body.error_code]).toEqual([
      choice.status,
      choice.error_code ?? entry.code,
    ]);
    expect(withProfile.body).toMatchObject({ succeed: false, data: null });
    expect([without.status, without.body.error_code]).toEqual([entry.status, entry.code]);
    expect(profiled.responseViolations).toEqual([]);
    expect(own.responseViolations).toEqual([]);
  });
});

/** A profile of one point (and its catalogue question). */
const onePoint = (id: string, choice: unknown) => ({
  kind: 'voice-kit-profile',
  version: 1,
  points: { [id]: { question: id.split('/')[0], choice } },
});

describe('a profile calibrates the other points', () => {
  it('voice-save-data: data is the template with the normalized voice id', async () => {
    const service = await serviceWith(
      onePoint('voice-save-data', { data: { voice_id: '{voice_id}', note: 'id {voice_id}', n: 1 } }),
    );
    const saved = await save(service, '  Narrator ');
    expect(saved.body.data).toEqual({ voice_id: 'narrator', note: 'id narrator', n: 1 });
    expect((await save(await serviceWith(), '  Narrator ')).body.data).toEqual({ voice_id: 'narrator' });
    expect(service.responseViolations).toEqual([]);
  });

  it('delete-response-body: data is the template; missing: the refusal instead of success', async () => {
    const profile = everyPointProfile();
    const service = await serviceWith(profile);
    await save(service, 'gone');
    const deleted = await call(service, '/v1/voice/gone', { method: 'DELETE' });
    expect([deleted.status, deleted.body.data]).toEqual([200, { deleted: 'gone' }]);
    const again = await call(service, '/v1/voice/gone', { method: 'DELETE' });
    expect([again.status, again.body.error_code, again.body.data]).toEqual([404, 10004, null]);
    const never = await call(service, '/v1/voice/never', { method: 'DELETE' });
    expect(never.status).toBe(404);
    const own = await serviceWith();
    const ownMissing = await call(own, '/v1/voice/never', { method: 'DELETE' });
    expect([ownMissing.status, ownMissing.body.data]).toEqual([200, null]);
    expect(service.responseViolations).toEqual([]);
    // A profile that saw success keeps it, with its data.
    const success = await serviceWith({
      ...profile,
      points: {
        ...profile.points,
        'delete-response-body/missing': { question: 'delete-response-body', choice: { status: 200 } },
      },
    });
    const gone = await call(success, '/v1/voice/never', { method: 'DELETE' });
    expect([gone.status, gone.body.data]).toEqual([200, { deleted: 'never' }]);
  });

  it('list-order newest-first: pages and cursors newest first', async () => {
    const walk = async (service: MockService) => {
      for (const id of ['a', 'b', 'c', 'd', 'e']) {
        await save(service, id);
        service.clock.advance(1000);
      }
      const seen: string[][] = [];
      let cursor = '';
      for (let page = 0; page < 3; page++) {
        const list = await call(service, `/v1/voice/list?page_size=2${cursor ? `&voice_id=${cursor}` : ''}`);
        seen.push(list.body.data.list.map((v: { voice_id: string }) => v.voice_id));
        cursor = list.body.data.next_voice_id ?? '';
        if (!list.body.data.has_more) break;
      }
      return seen;
    };
    expect(await walk(await serviceWith(onePoint('list-order', { order: 'newest-first' })))).toEqual([
      ['e', 'd'],
      ['c', 'b'],
      ['a'],
    ]);
    expect(await walk(await serviceWith())).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('list-order newest-first: a cursor naming a since-deleted voice goes on after it', async () => {
    const service = await serviceWith(onePoint('list-order', { order: 'newest-first' }));
    for (const id of ['a', 'b', 'c', 'd']) await save(service, id);
    const first = await call(service, '/v1/voice/list?page_size=2');
    expect(first.body.data.next_voice_id).toBe('b');
    await call(service, '/v1/voice/b', { method: 'DELETE' });
    const next = await call(service, '/v1/voice/list?page_size=2&voice_id=b');
    expect(next.body.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['a']);
  });

  it('pcm-header-names: the profile names the PCM headers, over the config', async () => {
    const choice = everyPoint['pcm-header-names'] as Record<string, string>;
    const config = { pcmHeaders: { sampleRate: 'X-Config-Rate' } };
    const service = await serviceWith(onePoint('pcm-header-names', choice), config);
    const pcm = await speak(service, { generate_text: 'hi', audio_format: 'pcm' });
    expect(pcm.headers.get('X-Sample-Rate')).toBe('24000');
    expect(pcm.headers.get('X-Channels')).toBe('1');
    expect(pcm.headers.get('X-Bits')).toBe('16');
    expect(pcm.headers.get('X-Config-Rate')).toBeNull();
    expect(service.config.pcmHeaders).toEqual(choice);
    const own = await speak(await serviceWith(), { generate_text: 'hi', audio_format: 'pcm' });
    expect(own.headers.get('X-Audio-Sample-Rate')).toBe('24000');
    expect(own.headers.get('X-Sample-Rate')).toBeNull();
  });

  it('max-text-length: the profile sets the longest text, over the config, in code points', async () => {
    const service = await serviceWith(onePoint('max-text-length', { characters: 5 }), { maxTextLength: 100 });
    expect((await speak(service, { generate_text: '😀😀😀😀😀' })).status).toBe(200);
    const refused = await speak(service, { generate_text: 'abcdef' });
    expect([refused.status, refused.body.error_code]).toEqual([400, 10001]);
    expect((await speak(await serviceWith(), { generate_text: 'abcdef' })).status).toBe(200);
  });

  it('default-audio-format: per endpoint', async () => {
    const service = await serviceWith(onePoint('default-audio-format', { complete: 'mp3', stream: 'pcm' }));
    expect((await speak(service, { generate_text: 'hi' })).headers.get('content-type')).toBe('audio/mpeg');
    expect((await speak(service, { generate_text: 'hi' }, true)).headers.get('content-type')).toBe(
      'audio/pcm',
    );
    expect(
      (await speak(service, { generate_text: 'hi', audio_format: 'wav' })).headers.get('content-type'),
    ).toBe('audio/wav');
    const onlyStream = await serviceWith(onePoint('default-audio-format', { stream: 'mp3' }));
    expect((await speak(onlyStream, { generate_text: 'hi' })).headers.get('content-type')).toBe('audio/wav');
    const own = await serviceWith();
    expect((await speak(own, { generate_text: 'hi' }, true)).headers.get('content-type')).toBe('audio/wav');
  });

  it('text-alias accepted: text stands for generate_text; with both, generate_text wins', async () => {
    const service = await serviceWith(onePoint('text-alias', { accepted: true }));
    const own = await serviceWith();
    const byText = await speak(service, { text: 'hello there' });
    const byGenerate = await speak(service, { generate_text: 'hello there' });
    expect(byText.status).toBe(200);
    expect(byText.body).toEqual(byGenerate.body);
    const both = await speak(service, { generate_text: 'hello there', text: 'something else entirely' });
    expect(both.body).toEqual(byGenerate.body);
    const refused = await speak(own, { text: 'hello there' });
    expect([refused.status, refused.body.error_code]).toEqual([400, 10001]);
    const notAccepted = await serviceWith(onePoint('text-alias', { accepted: false }));
    expect((await speak(notAccepted, { text: 'hello there' })).status).toBe(400);
  });

  it('upload-retry-after false: the upload 429 carries no Retry-After', async () => {
    const limited = async (profile?: unknown) => {
      const service = await serviceWith(profile, { uploadsPerHour: 1 });
      await upload(service);
      return upload(service);
    };
    const without = await limited(onePoint('upload-retry-after', { header: false }));
    expect([without.status, without.body.error_code]).toEqual([429, 10005]);
    expect(without.headers.get('retry-after')).toBeNull();
    expect(without.body.error_message).not.toMatch(/retry in/);
    expect((await limited()).headers.get('retry-after')).toMatch(/^\d+$/);
    expect(
      (await limited(onePoint('upload-retry-after', { header: true }))).headers.get('retry-after'),
    ).toMatch(/^\d+$/);
  });

  it('reference-duration-boundaries exclusive: a compressed reference of exactly 3 s is 20016, of 60 s 20015', async () => {
    const exclusive = await serviceWith(
      onePoint('reference-duration-boundaries', { shortest: 'exclusive', longest: 'exclusive' }),
    );
    const three = await save(exclusive, 'three', 'exact3.mp3');
    expect([three.status, three.body.error_code]).toEqual([400, 20016]);
    const sixty = await save(exclusive, 'sixty', 'exact60.mp3');
    expect([sixty.status, sixty.body.error_code]).toEqual([400, 20015]);
    expect((await save(exclusive, 'fine', 'r.wav')).status).toBe(200);
    // A WAV of exactly 3.000 s and 60.000 s stays accepted: §8, a must of the suite.
    expect((await save(exclusive, 'wav3', 'exact3.wav')).status).toBe(200);
    expect((await save(exclusive, 'wav60', 'exact60.wav')).status).toBe(200);
    const own = await serviceWith();
    expect((await save(own, 'three', 'exact3.mp3')).status).toBe(200);
    expect((await save(own, 'sixty', 'exact60.mp3')).status).toBe(200);
    const onlyLongest = await serviceWith(
      onePoint('reference-duration-boundaries', { longest: 'exclusive' }),
    );
    expect((await save(onlyLongest, 'three', 'exact3.mp3')).status).toBe(200);
    expect((await save(onlyLongest, 'sixty', 'exact60.mp3')).status).toBe(400);
  });

  it('a profile status for a duration refusal applies to the boundary refusal too', async () => {
    const profile = everyPointProfile();
    const service = await serviceWith(profile);
    const three = await save(service, 'three', 'exact3.mp3');
    expect([three.status, three.body.error_code]).toEqual([422, 20016]);
    expect(service.responseViolations).toEqual([]);
  });
});

describe('createMockService({ profile })', () => {
  it('refuses a bad profile with the ProfileError naming the field', async () => {
    expect(() => createMockService({ profile: onePoint('list-ordr', { order: 'newest-first' }) })).toThrow(
      ProfileError,
    );
    expect(() => createMockService({ profile: onePoint('list-order', { order: 'random' }) })).toThrow(
      'points["list-order"].choice.order: "random" is not one of oldest-first, newest-first',
    );
  });

  it('shows the profile points in effect in the state view', async () => {
    const service = await serviceWith(onePoint('list-order', { order: 'newest-first' }));
    const state = await call(service, '/__mock/state?voices=none');
    expect(state.body.data.profile).toEqual({
      points: [{ point: 'list-order', question: 'list-order', choice: { order: 'newest-first' } }],
    });
    expect(service.profile?.points['list-order']).toBeDefined();
    const own = await call(await serviceWith(), '/__mock/state?voices=none');
    expect(own.body.data.profile).toBeNull();
  });

  it('the journal holds the mock to the profile: its refusals are no violation', async () => {
    // Without the response check, which would have turned a violation into a 500 before the journal.
    const service = await serviceWith(everyPointProfile(), {}, false);
    await save(service, 'x', 'short.wav');
    await save(service, 'y');
    await call(service, '/v1/voice/y', { method: 'DELETE' });
    await call(service, '/v1/voice/y', { method: 'DELETE' });
    await speak(service, { generate_text: 'hi', audio_format: 'pcm' });
    const rows = await call(service, '/__mock/requests');
    // The rows are the profile's answers (422 for 20016, 404 for the missing delete, its PCM names) …
    expect(rows.body.data.map((r: { status: number }) => r.status)).toEqual([
      200, 422, 200, 200, 200, 404, 200,
    ]);
    const verdicts = rows.body.data.map((r: { verdict: { ok: boolean; problems: string[] } }) => r.verdict);
    // … and none is a violation.
    for (const verdict of verdicts)
      expect(verdict).toEqual(expect.objectContaining({ ok: true, problems: [] }));
  });

  it('the journal judges PCM headers by the names in effect, a config rename too (no profile)', async () => {
    const pcmHeaders = { sampleRate: 'X-Rate', channels: 'X-Ch', bitDepth: 'X-Bits' };
    const service = await serviceWith(undefined, { pcmHeaders }, false);
    expect((await speak(service, { generate_text: 'hi', audio_format: 'pcm' })).headers.get('x-rate')).toBe(
      '24000',
    );
    const rows = await call(service, '/__mock/requests');
    expect(rows.body.data.map((r: { verdict: unknown }) => r.verdict)).toEqual([
      { ok: true, problems: [], checked: 'status' },
    ]);
  });
});
