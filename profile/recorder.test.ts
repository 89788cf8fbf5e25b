import { describe, expect, it } from 'vitest';
import type { OperationId } from '../openapi/contract.js';
import { createProfileRecorder, type SeenFacts } from './recorder.js';

let seq = 0;

/** The facts of one exchange, as the suite or the proxy would build them. */
function facts(
  operationId: OperationId | undefined,
  method: string,
  path: string,
  status: number,
  opts: {
    json?: unknown;
    rawBody?: string;
    answer?: unknown;
    headers?: Record<string, string>;
    key?: string;
  } = {},
): SeenFacts {
  seq += 1;
  const url = new URL(path, 'http://x');
  return {
    seq,
    operationId,
    method,
    path,
    query: Object.fromEntries(url.searchParams),
    requestHeaders: {
      'x-api-key': opts.key ?? 'k1',
      ...(opts.json !== undefined || opts.rawBody !== undefined
        ? { 'content-type': 'application/json' }
        : {}),
    },
    requestJson:
      opts.rawBody !== undefined
        ? { kind: 'not-json', error: 'bad' }
        : opts.json === undefined
          ? { kind: 'none' }
          : { kind: 'json', value: opts.json },
    form: undefined,
    status,
    responseHeaders: opts.headers ?? {},
    responseJson: opts.answer === undefined ? { kind: 'none' } : { kind: 'json', value: opts.answer },
    audio: undefined,
    timing: { waitMs: 0, spanMs: 0, chunks: 1 },
  };
}

const refused = (code: number) => ({ error_code: code, error_message: 'no', succeed: false, data: null });
const ok = (data: unknown) => ({ error_code: 0, error_message: '', succeed: true, data });

/** The recorder sees each voice saved, in this order, by the default key. */
function saveAll(r: ReturnType<typeof createProfileRecorder>, ids: readonly string[]): void {
  for (const id of ids)
    r.see(
      facts('saveVoice', 'POST', '/v1/voice/save', 200, {
        json: { voice_id: id, ref_audio: 'k' },
        answer: ok({}),
      }),
    );
}
const audio = (mime: string, extra: Record<string, string> = {}) => ({ 'content-type': mime, ...extra });

describe('the profile recorder without hints (the proxy)', () => {
  it('reads a voice-creation code as its status point, evidence included', () => {
    const r = createProfileRecorder();
    const f = facts('saveVoice', 'POST', '/v1/voice/save', 422, {
      json: { voice_id: 'a', ref_audio: 'k' },
      answer: refused(20016),
    });
    r.see(f);
    const p = r.profile();
    expect(p.points['voice-save-statuses/20016']).toEqual({
      question: 'voice-save-statuses',
      choice: { status: 422 },
      evidence: [{ exchange: f.seq, method: 'POST', path: '/v1/voice/save', status: 422, error_code: 20016 }],
    });
    expect(Object.keys(p.points)).toEqual(['voice-save-statuses/20016']);
  });

  it('takes 20012 as unsupported only when the ref_audio was uploaded by the same key', () => {
    const r = createProfileRecorder();
    const save = (ref: string) =>
      facts('saveVoice', 'POST', '/v1/voice/save', 400, {
        json: { voice_id: 'a', ref_audio: ref },
        answer: refused(20012),
      });
    r.see(save('never-uploaded'));
    expect(r.profile().points).toEqual({});
    r.see(facts('uploadFile', 'POST', '/v1/files/upload', 200, { answer: ok({ object_key: 'mine' }) }));
    r.see(
      facts('uploadFile', 'POST', '/v1/files/upload', 200, {
        answer: ok({ object_key: 'theirs' }),
        key: 'k2',
      }),
    );
    r.see(save('theirs'));
    expect(r.profile().points).toEqual({});
    r.see(save('mine'));
    expect(r.profile().points['voice-save-statuses/20012']?.choice).toEqual({ status: 400 });
    expect(r.profile().points['ref-audio-not-accessible']).toBeUndefined();
  });

  it('reads save data with the voice id as a placeholder (normalized)', () => {
    const r = createProfileRecorder();
    r.see(
      facts('saveVoice', 'POST', '/v1/voice/save', 200, {
        json: { voice_id: ' My_Voice ', ref_audio: 'k' },
        answer: ok({ voice_id: 'my_voice', status: 'ready', note: 'My_Voice' }),
      }),
    );
    expect(r.profile().points['voice-save-data']?.choice).toEqual({
      data: { voice_id: '{voice_id}', status: 'ready', note: 'My_Voice' },
    });
  });

  it('reads an invalid voice id refusal, but not one refused for its reference', () => {
    const r = createProfileRecorder();
    const save = (id: string, code: number) =>
      facts('saveVoice', 'POST', '/v1/voice/save', 422, {
        json: { voice_id: id, ref_audio: 'k' },
        answer: refused(code),
      });
    r.see(save('a.b', 20016)); // a reference code: the status point, not the id's
    r.see(save('x'.repeat(31), 10001)); // too long: stated by §4.2, not this point
    expect(r.profile().points['voice-id-invalid-characters']).toBeUndefined();
    r.see(save('a b', 10002));
    expect(r.profile().points['voice-id-invalid-characters']?.choice).toEqual({
      status: 422,
      error_code: 10002,
    });
  });

  it('reads page size and cursor refusals only when one of the two is at fault', () => {
    const r = createProfileRecorder();
    r.see(
      facts('listVoices', 'GET', '/v1/voice/list?page_size=25&voice_id=c', 422, { answer: refused(10001) }),
    );
    expect(r.profile().points).toEqual({});
    r.see(facts('listVoices', 'GET', '/v1/voice/list?page_size=25', 422, { answer: refused(10001) }));
    r.see(facts('listVoices', 'GET', '/v1/voice/list?voice_id=nope', 404, { answer: refused(10009) }));
    const p = r.profile().points;
    expect(p['page-size-out-of-range']?.choice).toEqual({ status: 422, error_code: 10001 });
    expect(p['list-errors/unknown-cursor']?.choice).toEqual({ status: 404, error_code: 10009 });
  });

  it('never reads a 401 or a 429 as a refusal choice', () => {
    const r = createProfileRecorder();
    r.see(facts('listVoices', 'GET', '/v1/voice/list?page_size=25', 401, { answer: refused(10003) }));
    r.see(facts('listVoices', 'GET', '/v1/voice/list?page_size=25', 429, { answer: refused(10005) }));
    expect(r.profile().points).toEqual({});
  });

  it('reads the list order from voices saved in a known order, newest first', () => {
    const r = createProfileRecorder();
    saveAll(r, ['a', 'b', 'c']);
    const list = (ids: string[], key = 'k1') =>
      facts('listVoices', 'GET', '/v1/voice/list', 200, {
        key,
        answer: ok({ list: ids.map((voice_id) => ({ voice_id })), has_more: false }),
      });
    r.see(list(['c', 'a'], 'k2')); // another key saved none of them: no evidence
    expect(r.profile().points['list-order']).toBeUndefined();
    r.see(list(['x', 'c', 'b', 'a']));
    expect(r.profile().points['list-order']?.choice).toEqual({ order: 'newest-first' });
  });

  it('reads the order from voices of different seconds when ties within a second are broken otherwise', () => {
    const r = createProfileRecorder();
    saveAll(r, ['a', 'b', 'c']);
    // Newest first by created_at; a and b were saved in the same second and come by id, a first.
    const voices = [
      { voice_id: 'c', created_at: 101 },
      { voice_id: 'a', created_at: 100 },
      { voice_id: 'b', created_at: 100 },
    ];
    r.see(facts('listVoices', 'GET', '/v1/voice/list', 200, { answer: ok({ list: voices }) }));
    expect(r.profile().points['list-order']?.choice).toEqual({ order: 'newest-first' });
  });

  it('puts a point answered two ways into unsettled, never into points', () => {
    const r = createProfileRecorder();
    saveAll(r, ['a', 'b']);
    const list = (ids: string[]) =>
      facts('listVoices', 'GET', '/v1/voice/list', 200, {
        answer: ok({ list: ids.map((voice_id) => ({ voice_id })) }),
      });
    r.see(list(['a', 'b']));
    r.see(list(['b', 'a']));
    const p = r.profile();
    expect(p.points['list-order']).toBeUndefined();
    expect(p.unsettled?.[0]?.point).toBe('list-order');
    expect(p.unsettled?.[0]?.choices).toEqual([{ order: 'oldest-first' }, { order: 'newest-first' }]);
  });

  it('reads delete data of a live voice and the answer for one already deleted', () => {
    const r = createProfileRecorder();
    r.see(facts('deleteVoice', 'DELETE', '/v1/voice/never', 200, { answer: ok(null) })); // unknown voice: nothing
    expect(r.profile().points).toEqual({});
    r.see(
      facts('saveVoice', 'POST', '/v1/voice/save', 200, {
        json: { voice_id: 'v1', ref_audio: 'k' },
        answer: ok({}),
      }),
    );
    r.see(facts('deleteVoice', 'DELETE', '/v1/voice/v1', 200, { answer: ok({ deleted: 'v1' }) }));
    r.see(facts('deleteVoice', 'DELETE', '/v1/voice/v1', 404, { answer: refused(10001) }));
    const p = r.profile().points;
    expect(p['delete-response-body']?.choice).toEqual({ data: { deleted: '{voice_id}' } });
    expect(p['delete-response-body/missing']?.choice).toEqual({ status: 404, error_code: 10001 });
  });

  it('reads the text alias, a missing text, a negative speed and malformed JSON', () => {
    const r = createProfileRecorder();
    const tts = (status: number, json: unknown, answer?: unknown) =>
      facts('synthesizeSpeech', 'POST', '/v1/text-to-speech', status, {
        json,
        answer,
        headers: status === 200 ? audio('audio/mpeg') : {},
      });
    r.see(tts(200, { text: 'hi' }));
    r.see(tts(422, { voice_id: 'v' }, refused(10004)));
    r.see(tts(400, { generate_text: 'hi', speed: -1 }, refused(10005)));
    r.see(
      facts('streamSpeech', 'POST', '/v1/text-to-speech/stream', 400, {
        rawBody: '{',
        answer: refused(10006),
      }),
    );
    const p = r.profile().points;
    expect(p['text-alias']?.choice).toEqual({ accepted: true });
    expect(p['synthesis-errors/missing-text']?.choice).toEqual({ status: 422, error_code: 10004 });
    expect(p['synthesis-errors/negative-speed']?.choice).toEqual({ status: 400, error_code: 10005 });
    expect(p['general-errors/malformed-json']?.choice).toEqual({ status: 400, error_code: 10006 });
  });

  it('reads the default format per endpoint, only from requests without audio_format', () => {
    const r = createProfileRecorder();
    r.see(
      facts('synthesizeSpeech', 'POST', '/v1/text-to-speech', 200, {
        json: { generate_text: 'a', audio_format: 'wav' },
        headers: audio('audio/wav'),
      }),
    );
    expect(r.profile().points['default-audio-format']).toBeUndefined();
    r.see(
      facts('synthesizeSpeech', 'POST', '/v1/text-to-speech', 200, {
        json: { generate_text: 'a' },
        headers: audio('audio/mpeg'),
      }),
    );
    r.see(
      facts('streamSpeech', 'POST', '/v1/text-to-speech/stream', 200, {
        json: { generate_text: 'a' },
        headers: audio('audio/wav; x=1'),
      }),
    );
    expect(r.profile().points['default-audio-format']?.choice).toEqual({ complete: 'mp3', stream: 'wav' });
  });

  it('reads PCM header names by name and value, and refuses to guess between two candidates', () => {
    const r = createProfileRecorder();
    const pcm = (headers: Record<string, string>) =>
      facts('synthesizeSpeech', 'POST', '/v1/text-to-speech', 200, {
        json: { generate_text: 'a', audio_format: 'pcm' },
        headers: audio('audio/pcm', headers),
      });
    r.see(
      pcm({ 'x-sample-rate': '24000', 'x-rate': '48000', 'x-channel-count': '1', 'x-bits-per-sample': '16' }),
    );
    expect(r.profile().points['pcm-header-names']).toBeUndefined();
    r.see(
      pcm({
        'x-sample-rate': '24000',
        'x-channel-count': '1',
        'x-bits-per-sample': '16',
        'content-length': '9600',
      }),
    );
    expect(r.profile().points['pcm-header-names']?.choice).toEqual({
      sampleRate: 'X-Sample-Rate',
      channels: 'X-Channel-Count',
      bitDepth: 'X-Bits-Per-Sample',
    });
  });

  it('reads max-text-length only when N was accepted and N + 1 refused, counting code points', () => {
    const r = createProfileRecorder();
    const stream = (n: number, status: number) =>
      facts('streamSpeech', 'POST', '/v1/text-to-speech/stream', status, {
        json: { generate_text: '😀'.repeat(n) },
        answer: status === 200 ? undefined : refused(10007),
        headers: status === 200 ? audio('audio/wav') : {},
      });
    r.see(stream(12, 422));
    r.see(stream(9, 200));
    expect(r.profile().points['max-text-length']).toBeUndefined(); // 10 and 11 unknown
    r.see(stream(10, 200));
    expect(r.profile().points['max-text-length']).toBeUndefined();
    r.see(stream(11, 422));
    const p = r.profile().points;
    expect(p['max-text-length']?.choice).toEqual({ characters: 10 });
    expect(p['max-text-length']?.evidence?.map((e) => e.status)).toEqual([200, 422]);
    expect(p['max-text-length/refusal']?.choice).toEqual({ status: 422, error_code: 10007 });
  });

  it('reads Retry-After on an upload 429, and unknown paths and wrong methods with no operation', () => {
    const r = createProfileRecorder();
    r.see(facts('uploadFile', 'POST', '/v1/files/upload', 429, { answer: refused(10005) }));
    r.see(facts(undefined, 'GET', '/v1/nowhere', 404, { answer: refused(10001) }));
    r.see(facts(undefined, 'PUT', '/v1/voice/list', 405, { answer: refused(10001) }));
    r.see(facts(undefined, 'HEAD', '/v1/voice/list', 405));
    const p = r.profile().points;
    expect(p['upload-retry-after']?.choice).toEqual({ header: false });
    expect(p['general-errors/unknown-path']?.choice).toEqual({ status: 404, error_code: 10001 });
    expect(p['general-errors/wrong-method']?.choice).toEqual({ status: 405, error_code: 10001 });
  });
});

describe('the profile recorder with hints (the suite)', () => {
  it('reads a hinted refusal point, and nothing from a hinted success of it', () => {
    const r = createProfileRecorder();
    const save = (status: number, answer: unknown) =>
      facts('saveVoice', 'POST', '/v1/voice/save', status, {
        json: { voice_id: 'a', ref_audio: 'x' },
        answer,
      });
    r.see(save(404, refused(20019)), { point: 'ref-audio-not-accessible', case: 'c1' });
    r.see(save(200, ok({})), { point: 'voice-cloning-disabled-error', case: 'c2' });
    const p = r.profile().points;
    expect(p['ref-audio-not-accessible']).toEqual({
      question: 'ref-audio-not-accessible',
      choice: { status: 404, error_code: 20019 },
      evidence: [expect.objectContaining({ case: 'c1', status: 404, error_code: 20019 })],
    });
    expect(p['voice-cloning-disabled-error']).toBeUndefined();
    expect(p['voice-save-data']).toBeUndefined(); // a hint names the one point the exchange is about
  });

  it('reads the duration bounds part by part', () => {
    const r = createProfileRecorder();
    const save = (status: number, code?: number) =>
      facts('saveVoice', 'POST', '/v1/voice/save', status, {
        json: { voice_id: 'a', ref_audio: 'x' },
        answer: code ? refused(code) : ok({}),
      });
    r.see(save(200), { point: 'reference-duration-boundaries', aspect: 'shortest' });
    r.see(save(400, 20012), { point: 'reference-duration-boundaries', aspect: 'longest' }); // another reason
    expect(r.profile().points['reference-duration-boundaries']?.choice).toEqual({ shortest: 'inclusive' });
    r.see(save(400, 20015), { point: 'reference-duration-boundaries', aspect: 'longest' });
    expect(r.profile().points['reference-duration-boundaries']?.choice).toEqual({
      shortest: 'inclusive',
      longest: 'exclusive',
    });
  });
});
