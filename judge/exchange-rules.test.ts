import { describe, expect, it } from 'vitest';
import type { ExchangeFacts } from './exchange.js';
import { createJudge } from './judge.js';

/** The exchange rules alone, each exchange judged by a fresh judge. */
const judge = (f: ExchangeFacts) => createJudge({ kinds: ['exchange'] }).judge(f);

const ok = (data: unknown) =>
  ({ kind: 'json', value: { error_code: 0, error_message: '', succeed: true, data } }) as const;
const facts = (over: Partial<ExchangeFacts>): ExchangeFacts => ({
  seq: 1,
  method: 'GET',
  path: '/v1/voice/list',
  operationId: 'listVoices',
  query: {},
  requestHeaders: { 'x-api-key': 'k' },
  requestJson: { kind: 'none' },
  form: undefined,
  status: 200,
  responseHeaders: { 'content-type': 'application/json' },
  responseJson: ok({ list: [], has_more: false, total: 0, remainingFreeCloneCount: 1 }),
  audio: undefined,
  timing: { waitMs: 1, spanMs: 0, chunks: 1 },
  ...over,
});
const rulesOf = (f: ExchangeFacts) => judge(f).map((x) => x.rule);

describe('judge', () => {
  it('passes a clean list answer, and finds total ≠ the page', () => {
    expect(rulesOf(facts({}))).toEqual([]);
    expect(
      judge(
        facts({ responseJson: ok({ list: [], has_more: false, total: 7, remainingFreeCloneCount: 1 }) }),
      ).map((f) => f.seen),
    ).toEqual(['total is 7 for a page of 0 voices; §4.3: the number of voices returned in this page']);
  });

  it('finds a JSON answer that is not JSON, or comes with another Content-Type', () => {
    expect(rulesOf(facts({ responseJson: { kind: 'not-json', error: 'Unexpected token <' } }))).toEqual([
      'envelope.shape',
    ]);
    expect(rulesOf(facts({ responseHeaders: { 'content-type': 'text/html' } }))).toEqual([
      'content-type.documented',
    ]);
  });

  it('leaves alone a JSON answer over the cap, and the general errors §7.3 does not show', () => {
    expect(rulesOf(facts({ responseJson: { kind: 'too-large', bytes: 9e6 } }))).toEqual([]);
    expect(
      rulesOf(facts({ operationId: 'synthesizeSpeech', status: 429, responseJson: { kind: 'none' } })),
    ).toEqual([]);
    // Upload documents its 429: there, the envelope is judged as any other.
    expect(rulesOf(facts({ operationId: 'uploadFile', status: 429, responseJson: ok(null) }))).toContain(
      'envelope.shape',
    );
  });

  it('holds voice creation to the one pair §4.2 states: 10001 comes with 400', () => {
    const save = (status: number, code: number) =>
      facts({
        operationId: 'saveVoice',
        status,
        responseJson: {
          kind: 'json',
          value: { error_code: code, error_message: 'no', succeed: false, data: null },
        },
      });
    expect(rulesOf(save(400, 10001))).toEqual([]);
    expect(rulesOf(save(409, 10018))).toEqual([]);
    expect(judge(save(409, 10001)).map((f) => f.seen)).toEqual([
      'error_code 10001 comes with HTTP 409; §4.2 rule 1 pairs it with 400',
    ]);
  });

  it('tolerates what the spec leaves open: any 4xx envelope for a voice-creation code, 200 or 404 for delete', () => {
    const refusal = (operationId: ExchangeFacts['operationId'], status: number, code: number) =>
      facts({
        operationId,
        status,
        responseJson: {
          kind: 'json',
          value: { error_code: code, error_message: 'no', succeed: false, data: null },
        },
      });
    for (const code of [10018, 20010, 20012, 20015, 20016, 20017])
      for (const status of [400, 409, 413, 422])
        expect(rulesOf(refusal('saveVoice', status, code)), `${status}/${code}`).toEqual([]);
    expect(rulesOf(refusal('deleteVoice', 404, 10001))).toEqual([]);
    expect(rulesOf(refusal('deleteVoice', 404, 40401))).toEqual([]);
    expect(rulesOf(refusal('synthesizeSpeech', 422, 10001))).toEqual([]);
    expect(rulesOf(refusal('listVoices', 422, 10001))).toEqual([]);
    // Upload's statuses are stated (§7.1): a 422 there is still a violation.
    expect(rulesOf(refusal('uploadFile', 422, 20012))).toEqual(['status.documented']);
    // Open, but still an envelope, and the pairs the spec states still hold.
    expect(
      rulesOf(
        facts({
          operationId: 'saveVoice',
          status: 422,
          responseJson: { kind: 'json', value: { error_code: 20016, succeed: false, data: null } },
        }),
      ),
    ).toEqual(['envelope.shape']);
    expect(rulesOf(refusal('saveVoice', 422, 10001))).toEqual(['error-code.for-status']);
    expect(rulesOf(refusal('saveVoice', 418, 20016)).length).toBe(0);
  });

  it('judges audio: the requested format (should), the lump only past its thresholds', () => {
    const audio = { kind: 'wav', bytes: 96044, seconds: 2, problems: [] } as const;
    const synth = {
      operationId: 'streamSpeech',
      requestJson: { kind: 'json', value: { generate_text: 'x', audio_format: 'mp3' } },
      responseHeaders: { 'content-type': 'audio/wav' },
      responseJson: { kind: 'none' },
      audio,
    } as const;
    expect(judge(facts(synth)).map((f) => [f.rule, f.severity])).toEqual([
      ['audio.requested-format', 'should'],
    ]);
    const lump = { ...synth, requestJson: { kind: 'none' } as const };
    expect(rulesOf(facts({ ...lump, timing: { waitMs: 1100, spanMs: 5, chunks: 3 } }))).toEqual([
      'stream.progressive',
    ]);
    // Under a second of wait a late fast generator and a lump look alike on the wire: no violation.
    expect(rulesOf(facts({ ...lump, timing: { waitMs: 900, spanMs: 5, chunks: 1 } }))).toEqual([]);
    expect(rulesOf(facts({ ...lump, timing: { waitMs: 1100, spanMs: 300, chunks: 30 } }))).toEqual([]);
    expect(
      rulesOf(
        facts({ ...lump, audio: { ...audio, seconds: 0.2 }, timing: { waitMs: 1100, spanMs: 5, chunks: 1 } }),
      ),
    ).toEqual([]);
    expect(
      rulesOf(
        facts({
          ...lump,
          requestHeaders: { 'x-api-key': 'k', prefer: 'latency=1100' },
          timing: { waitMs: 1100, spanMs: 5, chunks: 3 },
        }),
      ),
    ).toEqual([]);
  });
});
