import { describe, expect, it } from 'vitest';
import { createMockService } from '../service.js';

const service = createMockService({ validateResponses: true, logger: { error: () => {} } });
const synthesize = (path: string, body: string) =>
  service.fetch(
    new Request(`http://mock.test${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
      body,
    }),
  );
const paths = ['/v1/text-to-speech', '/v1/text-to-speech/stream'];

describe.each(paths)('synthesis edge cases on %s', (path) => {
  it.each([
    ['only spaces', '{"generate_text":"   "}', 'generate_text has nothing to speak: it is only whitespace'],
    [
      'tabs and newlines',
      '{"generate_text":"\\t\\n \\r\\n"}',
      'generate_text has nothing to speak: it is only whitespace',
    ],
    [
      'ideographic space and NBSP',
      '{"generate_text":"\\u3000\\u00a0"}',
      'generate_text has nothing to speak: it is only whitespace',
    ],
    ['empty', '{"generate_text":""}', 'generate_text must not be empty'],
    [
      'speed 1e400 (parses to Infinity)',
      '{"generate_text":"Hi","speed":1e400}',
      'speed must be 0 (provider default) or a positive number, got Infinity (a number too large for JSON)',
    ],
    [
      'speed -1e400',
      '{"generate_text":"Hi","speed":-1e400}',
      'speed must be 0 (provider default) or a positive number, got -Infinity',
    ],
  ])('%s → 400/10001', async (_name, body, message) => {
    const res = await synthesize(path, body);
    const envelope = (await res.json()) as { error_code: number; error_message: string };
    expect([res.status, envelope.error_code, envelope.error_message]).toEqual([400, 10001, message]);
  });

  it.each([
    ['[laugh]', '{"generate_text":"[laugh]","audio_format":"wav"}'],
    ['[sigh] with spaces around', '{"generate_text":"  [sigh]  ","audio_format":"pcm"}'],
    ['a huge but finite speed', '{"generate_text":"Hi","speed":1e300,"audio_format":"pcm"}'],
  ])('%s is valid and makes sound', async (_name, body) => {
    const res = await synthesize(path, body);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const offset = res.headers.get('content-type') === 'audio/wav' ? 44 : 0;
    const samples = new Int16Array(bytes.slice(offset, offset + ((bytes.byteLength - offset) & ~1)).buffer);
    // Not a silence: the tag makes its sound.
    expect(samples.reduce((peak, s) => Math.max(peak, Math.abs(s)), 0)).toBeGreaterThan(1000);
    expect(service.responseViolations).toEqual([]);
  });
});
