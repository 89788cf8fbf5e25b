import { describe, expect, it } from 'vitest';
import type { ExchangeFacts } from './exchange.js';
import { createJudge, type JudgeOptions } from './judge.js';

/** A session of exchanges written as a script: each step is numbered in order. */
function session(options: Partial<JudgeOptions> = {}) {
  const judge = createJudge({ kinds: ['session', 'request'], ...options });
  let seq = 0;
  const step = (over: Partial<ExchangeFacts>) =>
    judge.judge({
      seq: ++seq,
      operationId: 'listVoices',
      method: 'GET',
      path: '/v1/voice/list',
      query: {},
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      requestJson: { kind: 'none' },
      form: undefined,
      status: 200,
      responseHeaders: { 'content-type': 'application/json' },
      responseJson: { kind: 'none' },
      audio: undefined,
      timing: { waitMs: 0, spanMs: 0, chunks: 1 },
      ...over,
    });
  const ok = (data: unknown) =>
    ({ kind: 'json', value: { error_code: 0, error_message: '', succeed: true, data } }) as const;
  const refused = (code: number) =>
    ({ kind: 'json', value: { error_code: code, error_message: 'no', succeed: false, data: null } }) as const;
  return {
    list: (ids: string[], free = 3) =>
      step({
        responseJson: ok({
          list: ids.map((voice_id) => ({ voice_id, voice_url: 'https://x/y', created_at: 1 })),
          has_more: false,
          total: ids.length,
          remainingFreeCloneCount: free,
        }),
      }),
    save: (id: string, status = 200) =>
      step({
        operationId: 'saveVoice',
        method: 'POST',
        path: '/v1/voice/save',
        requestJson: { kind: 'json', value: { voice_id: id, ref_audio: 'upl_1' } },
        status,
        responseJson: status === 200 ? ok({ voice_id: id.trim().toLowerCase() }) : refused(20016),
      }),
    remove: (id: string, status = 200) =>
      step({
        operationId: 'deleteVoice',
        method: 'DELETE',
        path: `/v1/voice/${id}`,
        status,
        responseJson: status === 200 ? ok(null) : refused(10001),
      }),
    /** A request of another key (its own scope). */
    other: () => step({ requestHeaders: { 'x-api-key': 'other', 'content-type': 'application/json' } }),
    speak: (body: Record<string, unknown>, status = 200) =>
      step({
        operationId: 'synthesizeSpeech',
        method: 'POST',
        path: '/v1/text-to-speech',
        requestJson: { kind: 'json', value: { generate_text: 'Hi.', ...body } },
        status,
        responseHeaders: { 'content-type': status === 200 ? 'audio/wav' : 'application/json' },
        responseJson: status === 200 ? { kind: 'none' } : refused(10001),
      }),
  };
}
const ids = (vs: { rule: string }[]) => vs.map((v) => v.rule);

describe('session rules', () => {
  it('stay quiet on a consistent session: save, list, speak, delete, 404 on a second delete, save the id again', () => {
    const s = session();
    expect(
      [
        s.list([], 3),
        s.save(' My_Voice '),
        s.list(['my_voice'], 2),
        s.speak({ voice_id: 'my_voice' }),
      ].flat(),
    ).toEqual([]);
    expect(
      [
        s.remove('my_voice'),
        s.remove('my_voice', 404),
        s.speak({ voice_id: 'my_voice' }, 400),
        s.list([], 2),
      ].flat(),
    ).toEqual([]);
    expect(
      [s.save('my_voice'), s.list(['my_voice'], 1), s.save('short', 400), s.list(['my_voice'], 1)].flat(),
    ).toEqual([]);
  });

  it('name the earlier exchange: deleted at exchange 3, listed again at exchange 4', () => {
    const s = session();
    s.save('v1');
    s.list(['v1'], 2);
    s.remove('v1');
    const [v] = s.list(['v1'], 2);
    expect(v).toMatchObject({
      rule: 'session.deleted-gone',
      severity: 'should',
      exchange: 4,
      evidence: { exchange: 3 },
    });
    expect(v?.seen).toBe('voice "v1" deleted at exchange 3, listed again at exchange 4');
  });

  it('are must with a complete view, or for voices only this client touches, and should otherwise', () => {
    for (const [options, severity] of [
      [{}, 'should'],
      [{ completeView: true }, 'must'],
      [{ ownVoice: (id: string) => id.startsWith('run_') }, 'must'],
    ] as const) {
      const s = session(options);
      s.save('run_v');
      expect(s.list([], 3).map((v) => [v.rule, v.severity])).toEqual([['session.saved-listed', severity]]);
    }
  });

  it('judge free uses: one per creation while any remain, none for a refusal or an upload', () => {
    const s = session();
    s.list([], 3);
    s.save('a');
    expect(ids(s.list(['a'], 3))).toEqual(['session.free-uses']);
    s.save('b', 400);
    expect(ids(s.list(['a'], 2))).toEqual(['session.free-uses']);
    expect(ids(s.list(['a'], 2))).toEqual([]);
  });

  it('without a keys map, a count that fell further than this key explains is no evidence once two keys are seen', () => {
    const s = session();
    s.list([], 3);
    s.other();
    expect(ids(s.list([], 2))).toEqual([]);
    s.save('a');
    expect(ids(s.list(['a'], 2))).toEqual(['session.free-uses']); // a creation that used none: still judged
  });

  it('judge a refusal of a saved voice only for an otherwise valid request', () => {
    const s = session();
    s.speak({ audio_format: 'wav' });
    s.save('v');
    expect(ids(s.speak({ voice_id: 'v', speed: -1 }, 400))).toEqual([]);
    expect(
      s.speak({ voice_id: 'v', audio_format: 'wav' }, 400).map((v) => [v.rule, v.evidence?.exchange]),
    ).toEqual([['session.saved-selectable', 2]]);
  });

  it('judge a refused speed 0 against a request like it accepted before, never without one', () => {
    const s = session();
    expect(ids(s.speak({ speed: 0 }, 400))).toEqual([]);
    s.speak({});
    expect(ids(s.speak({ speed: 0 }, 400))).toEqual(['request.speed']);
  });
});
