import { describe, expect, it } from 'vitest';
import { judgeOwnAnswer } from './judge.js';

const refusal = (code: number) => ({
  error_code: code,
  error_message: 'refused',
  succeed: false,
  data: null,
});
const json = (value: unknown) => ({ kind: 'json' as const, value });
const headers = { 'content-type': 'application/json; charset=utf-8' };

describe('judgeOwnAnswer with a calibration profile (own choices)', () => {
  it('takes a profile refusal as the mock own, and only that one', () => {
    const answer = { operationId: 'saveVoice' as const, status: 422, headers, json: json(refusal(20016)) };
    expect(judgeOwnAnswer(answer).map((v) => v.rule)).toEqual(['status.documented']);
    const own = { refusals: [{ operationId: 'saveVoice' as const, status: 422, code: 20016 }] };
    expect(judgeOwnAnswer(answer, own)).toEqual([]);
    // Another code, another operation: still the mock's own choices.
    expect(judgeOwnAnswer({ ...answer, json: json(refusal(20015)) }, own)).not.toEqual([]);
    expect(judgeOwnAnswer({ ...answer, operationId: 'deleteVoice' }, own)).not.toEqual([]);
    // The envelope still holds.
    const broken = { ...answer, json: json({ ...refusal(20016), succeed: true }) };
    expect(judgeOwnAnswer(broken, own).map((v) => v.rule)).toContain('envelope.shape');
  });

  it('takes a profile 10001 at another status than 400 as the mock own (no §4.2 rule 1 pairing)', () => {
    const answer = { operationId: 'saveVoice' as const, status: 422, headers, json: json(refusal(10001)) };
    const own = { refusals: [{ operationId: 'saveVoice' as const, status: 422, code: 10001 }] };
    expect(judgeOwnAnswer(answer)).not.toEqual([]);
    expect(judgeOwnAnswer(answer, own)).toEqual([]);
  });

  it('takes a profile `data` of save as the mock own', () => {
    const ok = { error_code: 0, error_message: '', succeed: true, data: { voice_id: 7 } };
    const answer = { operationId: 'saveVoice' as const, status: 200, headers, json: json(ok) };
    expect(judgeOwnAnswer(answer).map((v) => v.rule)).toEqual(['schema.response']);
    expect(judgeOwnAnswer(answer, { data: ['saveVoice'] })).toEqual([]);
    // Only the operations named; and the envelope still holds (§2.1: an object or null).
    expect(judgeOwnAnswer(answer, { data: ['deleteVoice'] })).not.toEqual([]);
    const notObject = { ...answer, json: json({ ...ok, data: 'saved' }) };
    expect(judgeOwnAnswer(notObject, { data: ['saveVoice'] }).map((v) => v.rule)).toEqual(['envelope.shape']);
  });

  it('judges PCM headers by the names the mock answers with', () => {
    const pcm = { 'content-type': 'audio/pcm', 'x-rate': '24000', 'x-ch': '1', 'x-bits': '16' };
    const answer = {
      operationId: 'synthesizeSpeech' as const,
      status: 200,
      headers: pcm,
      json: { kind: 'none' as const },
    };
    expect(judgeOwnAnswer(answer).map((v) => v.rule)).toContain('audio.pcm-headers');
    expect(
      judgeOwnAnswer(answer, { pcmHeaders: { sampleRate: 'X-Rate', channels: 'X-Ch', bitDepth: 'X-Bits' } }),
    ).toEqual([]);
  });
});
