import { describe, expect, it } from 'vitest';
import type { ExchangeFacts, FormPart } from './exchange.js';
import { createJudge } from './judge.js';

const judged = (over: Partial<ExchangeFacts>) =>
  createJudge({ kinds: ['request'] })
    .judge({
      seq: 1,
      operationId: 'saveVoice',
      method: 'POST',
      path: '/',
      query: {},
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      requestJson: { kind: 'none' },
      form: undefined,
      status: 200,
      responseHeaders: {},
      responseJson: { kind: 'none' },
      audio: undefined,
      timing: { waitMs: 0, spanMs: 0, chunks: 1 },
      ...over,
    })
    .map((v) => v.rule);
const answer = (status: number, code = status === 200 ? 0 : 10001) =>
  ({
    status,
    responseJson: {
      kind: 'json',
      value: { error_code: code, error_message: code ? 'no' : '', succeed: status === 200, data: null },
    },
  }) as const;
const save = (voice_id: string) =>
  ({ requestJson: { kind: 'json', value: { voice_id, ref_audio: 'upl_1' } } }) as const;
const form = (filename: string, scene = 'audio', bytes = 10) => ({
  operationId: 'uploadFile' as const,
  form: {
    parts: [
      { name: 'scene', filename: undefined, bytes: scene.length, text: scene },
      { name: 'file', filename, bytes },
    ] as FormPart[],
    complete: true,
    error: undefined,
  },
});
const speak = (body: Record<string, unknown>) => ({
  operationId: 'synthesizeSpeech' as const,
  requestJson: { kind: 'json', value: body } as const,
});

describe('request rules: was the deployment right to accept or refuse', () => {
  it.each([
    ['an id with a space and a bang', { ...save('bad id!'), ...answer(200) }, ['request.voice-id']],
    ['an id of 31 characters', { ...save('a'.repeat(31)), ...answer(200) }, ['request.voice-id']],
    ['a .flac file', { ...form('a.flac'), ...answer(200) }, ['request.file-extension']],
    ['a file without extension', { ...form('recording'), ...answer(200) }, ['request.file-extension']],
    ['the scene "video"', { ...form('a.wav', 'video'), ...answer(200) }, ['request.upload-form']],
    ['an empty file', { ...form('a.wav', 'audio', 0), ...answer(200) }, ['request.upload-form']],
    [
      'a negative speed',
      { ...speak({ generate_text: 'Hi', speed: -0.5 }), ...answer(200) },
      ['request.speed'],
    ],
    ['no text at all', { ...speak({ voice_id: 'x' }), ...answer(200) }, ['request.synthesis']],
  ])('accepting %s is a violation', (_, over, rules) => {
    expect(judged(over)).toEqual(rules);
  });

  it.each([
    [
      'a valid id with spaces and capitals, refused with 10001',
      { ...save('  My_Voice '), ...answer(400) },
      ['request.voice-id'],
    ],
    ['an .ogg refused with 20012', { ...form('a.ogg'), ...answer(400, 20012) }, ['request.file-extension']],
    [
      'an .OGG refused with 20012 (extensions are case-blind)',
      { ...form('A.OGG'), ...answer(400, 20012) },
      ['request.file-extension'],
    ],
  ])('refusing %s is a violation', (_, over, rules) => {
    expect(judged(over)).toEqual(rules);
  });

  it.each([
    ['an invalid id refused with 10001 (any status)', { ...save('bad id!'), ...answer(422) }],
    ['a valid id refused for its audio (20016)', { ...save('ok'), ...answer(400, 20016) }],
    ['a valid id refused as a duplicate (10018)', { ...save('ok'), ...answer(409, 10018) }],
    [
      'a valid id sent as text/plain, refused with 10001',
      { ...save('ok'), ...answer(400), requestHeaders: { 'x-api-key': 'k', 'content-type': 'text/plain' } },
    ],
    ['a .flac refused with 20012', { ...form('a.flac'), ...answer(400, 20012) }],
    // A dotfile's name: no extension (as the mock reads it) or the extension wav; either is a service's reading.
    ['a file named ".wav" refused with 20012', { ...form('.wav'), ...answer(400, 20012) }],
    ['a file named ".wav" accepted', { ...form('.wav'), ...answer(200) }],
    ['an .ogg refused for the upload rate (429)', { ...form('a.ogg'), ...answer(429, 10005) }],
    [
      'text under its alias `text` accepted (text-alias is open)',
      { ...speak({ text: 'Hi' }), ...answer(200) },
    ],
    ['speed 0 accepted', { ...speak({ generate_text: 'Hi', speed: 0 }), ...answer(200) }],
    ['a save answered 401', { ...save('bad id!'), ...answer(401, 10003) }],
  ])('%s is no violation', (_, over) => {
    expect(judged(over)).toEqual([]);
  });
});
