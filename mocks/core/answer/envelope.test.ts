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

describe('echoed values are cut to a few hundred characters (red-team D2: 16 KB paths, 16 KB answers)', () => {
  const service = createMockService({ logger: { error: () => {} } });
  const long = 'x'.repeat(15_900);

  it('quoted shows the first 256 characters, then the length', () => {
    expect(quoted(`${'a'.repeat(300)}\u202E`)).toBe(`"${'a'.repeat(256)}…" (301 characters)`);
    expect(quoted('a'.repeat(256))).toBe(`"${'a'.repeat(256)}"`);
  });

  it.each([
    ['GET', 404, `/v1/${long}`],
    ['POST', 404, `/__mock/${long}`],
    ['GET', 405, `/v1/voice/${long}`],
  ])('%s of a 16 KB target: %i in under 1 KB', async (method, status, path) => {
    const res = await service.fetch(new Request(`http://mock.test${path}`, { method }));
    expect(res.status).toBe(status);
    const text = await res.text();
    expect(text.length).toBeLessThan(1024);
  });

  it('a keyed list with a 16 KB cursor: 400 naming the cursor by its start and length', async () => {
    const res = await service.fetch(
      new Request(`http://mock.test/v1/voice/list?voice_id=${long}`, {
        headers: { 'X-API-Key': 'mock-key' },
      }),
    );
    const body = (await res.json()) as { error_message: string };
    expect(res.status).toBe(400);
    expect(body.error_message).toContain(`"${'x'.repeat(256)}…" (15,900 characters)`);
    expect(body.error_message.length).toBeLessThan(1024);
  });

  it('a 404 for a long path says the path is longer', async () => {
    const res = await service.fetch(new Request(`http://mock.test/v1/${long}`));
    const body = (await res.json()) as { error_message: string };
    expect(body.error_message).toBe(`no operation at GET /v1/${'x'.repeat(252)}… (15,904 characters)`);
  });
});
