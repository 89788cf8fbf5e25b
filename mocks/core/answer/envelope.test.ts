import { describe, expect, it } from 'vitest';
import { createMockService } from '../service.js';
import { quoted } from './envelope.js';

describe('quoted: an echoed value is safe to show (red-team D16)', () => {
  it.each([
    ['narrator', '"narrator"'],
    ['grüße 音声.wav', '"grüße 音声.wav"'],
    ['say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'],
    ['x\u202Eevil', '"x\\u202eevil"'],
    ['a\u2066b\u2069c\u200fd\u061ce', '"a\\u2066b\\u2069c\\u200fd\\u061ce"'],
    [
      'tab\tnew\nline\u0000nul\u007fdel\u0085nel\u2028ls',
      '"tab\\u0009new\\u000aline\\u0000nul\\u007fdel\\u0085nel\\u2028ls"',
    ],
    [
      'lone \ud800 high, lone \udc00 low, pair \ud83d\ude00',
      '"lone \\ud800 high, lone \\udc00 low, pair \ud83d\ude00"',
    ],
  ])('%j in a message reads %s', (value, shown) => {
    expect(quoted(value)).toBe(shown);
  });

  it('in a header (ascii) escapes everything outside printable ASCII', () => {
    expect(quoted('grüße\u202E', true)).toBe('"gr\\u00fc\\u00dfe\\u202e"');
  });
});

describe('echoed voice_ids and file names in error messages', () => {
  const service = createMockService({ logger: { error: () => {} } });
  const call = async (path: string, init: RequestInit) => {
    const res = await service.fetch(new Request(`http://mock.test${path}`, init));
    return ((await res.json()) as { error_message: string }).error_message;
  };
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('a voice_id with an RTL override is shown with \\u202e as text, on save and on synthesis', async () => {
    const saved = await call('/v1/voice/save', json({ voice_id: 'x\u202Eevil', ref_audio: 'obj_x' }));
    expect(saved).toBe('voice_id "x\\u202eevil" may only contain a-z 0-9 _ - after trimming and lowercasing');
    const spoken = await call('/v1/text-to-speech', json({ generate_text: 'hi', voice_id: 'x\u202Eevil' }));
    expect(spoken).toBe('voice_id "x\\u202eevil" is not available to this project');
  });

  it('an empty file whose name holds a bidi override is named with it escaped', async () => {
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([]), 'clip\u202Eexe.wav');
    const message = await call('/v1/files/upload', {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key' },
      body: form,
    });
    expect(message).toBe('invalid multipart request: file "clip\\u202eexe.wav" is empty');
  });
});
