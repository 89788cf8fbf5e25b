import { describe, expect, it } from 'vitest';
import { createMockService } from '../service.js';
import { describeFinding } from './schema-messages.js';

const service = createMockService({ validateResponses: true, logger: { error: () => {} } });
const send = async (method: string, path: string, body?: string) => {
  const res = await service.fetch(
    new Request(`http://mock.test${path}`, {
      method,
      headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    }),
  );
  const envelope = (await res.json()) as { error_code: number; error_message: string };
  return [res.status, envelope.error_code, envelope.error_message];
};

describe('schema errors are written for people: the field, the rule, the value received', () => {
  it.each([
    [
      'text instead of generate_text',
      '/v1/text-to-speech',
      '{"text":"Hello"}',
      'generate_text is required (the field `text` shown in the voice-creation flow is not accepted as an alias)',
    ],
    ['empty generate_text', '/v1/text-to-speech', '{"generate_text":""}', 'generate_text must not be empty'],
    [
      'generate_text a number',
      '/v1/text-to-speech',
      '{"generate_text":5}',
      'generate_text must be a string, got 5',
    ],
    ['an array body', '/v1/text-to-speech', '[]', 'the request body must be a JSON object, got an array'],
    [
      'a string body',
      '/v1/text-to-speech/stream',
      '"hi"',
      'the request body must be a JSON object, got "hi"',
    ],
    [
      'negative speed',
      '/v1/text-to-speech',
      '{"generate_text":"a","speed":-1}',
      'speed must be 0 (provider default) or a positive number, got -1',
    ],
    [
      'speed a word',
      '/v1/text-to-speech',
      '{"generate_text":"a","speed":"fast"}',
      'speed must be 0 (provider default) or a positive number, got "fast"',
    ],
    [
      'voice_id a number',
      '/v1/text-to-speech',
      '{"generate_text":"a","voice_id":7}',
      'voice_id must be a string, got 7',
    ],
    [
      'save without anything',
      '/v1/voice/save',
      '{}',
      'voice_id is required: the ID of the new voice; ref_audio is required: the object_key of an upload or an http(s) URL',
    ],
    [
      'empty ref_audio',
      '/v1/voice/save',
      '{"voice_id":"a","ref_audio":""}',
      'ref_audio must be the object_key of an upload or an http(s) URL, got ""',
    ],
  ])('%s', async (_name, path, body, message) => {
    expect(await send('POST', path, body)).toEqual([400, 10001, message]);
  });

  it.each([
    ['0', 'page_size must be an integer from 1 to 20, got "0"'],
    ['21', 'page_size must be an integer from 1 to 20, got "21"'],
    ['abc', 'page_size must be an integer from 1 to 20, got "abc"'],
    ['1.5', 'page_size must be an integer from 1 to 20, got "1.5"'],
  ])('page_size=%s', async (size, message) => {
    expect(await send('GET', `/v1/voice/list?page_size=${size}`)).toEqual([400, 10001, message]);
  });

  it('an empty list cursor says to omit it', async () => {
    expect(await send('GET', '/v1/voice/list?voice_id=')).toEqual([
      400,
      10001,
      'voice_id (the list cursor) must not be empty: omit it for the first page',
    ]);
  });

  it.each(['ftp://refs.example.test/me.wav', 'file:///tmp/me.wav', 's3://bucket/me.wav'])(
    'ref_audio %s names what ref_audio may be (was: "unknown object key")',
    async (ref) => {
      expect(await send('POST', '/v1/voice/save', JSON.stringify({ voice_id: 'a', ref_audio: ref }))).toEqual(
        [
          400,
          20012,
          `ref_audio must be the object_key of an upload or an http(s) URL, got ${JSON.stringify(ref)}`,
        ],
      );
    },
  );

  it('a field without a sentence of its own still names the field, the rule and the value', () => {
    const finding = { pointer: '/emotion_class', keyword: 'type', message: 'must be string' };
    expect(describeFinding('body', finding, { emotion_class: false })).toBe(
      'emotion_class must be a string, got false',
    );
    const nested = { pointer: '/a/b~1c', keyword: 'maximum', message: 'must be <= 3' };
    expect(describeFinding('body', nested, { a: { 'b/c': 4 } })).toBe('a.b/c must be <= 3, got 4');
  });
});
