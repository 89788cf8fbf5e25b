import { describe, expect, it } from 'vitest';
import { curlOf, formatBytes, formatMs, formatTime, type LogEntry, matches, statusClass } from './format.js';

const entry = (fields: Partial<LogEntry>): LogEntry => ({
  seq: 1,
  at: 1_767_225_600,
  method: 'GET',
  path: '/v1/voice/list',
  key: 'm…y',
  status: 200,
  operationId: 'listVoices',
  durationMs: 1,
  errorCode: null,
  errorMessage: null,
  stream: null,
  body: null,
  query: '',
  forced: [],
  warnings: [],
  verdict: null,
  ...fields,
});

describe('format', () => {
  it.each([
    [999, '999 B'],
    [1500, '1.5 kB'],
    [2_345_678, '2.3 MB'],
  ])('formatBytes(%i) is %j', (bytes, text) => expect(formatBytes(bytes)).toBe(text));

  it.each([
    [null, '–'],
    [3.25, '3.3 ms'],
    [48.4, '48 ms'],
    [1520, '1.52 s'],
  ])('formatMs(%j) is %j', (ms, text) => expect(formatMs(ms)).toBe(text));

  it('shows the mock clock in UTC', () => {
    expect(formatTime(1_767_225_605)).toBe('2026-01-01 00:00:05');
  });

  it.each([
    [200, '2xx'],
    [401, '4xx'],
    [503, '5xx'],
    [0, 'dropped'],
  ])('status %i is in class %j', (status, cls) => expect(statusClass(status)).toBe(cls));

  it('filters by status class and by a part of the path, case-insensitively', () => {
    const refused = entry({ status: 401, path: '/v1/Voice/list' });
    expect(matches(refused, { status: '', path: '' })).toBe(true);
    expect(matches(refused, { status: '4xx', path: 'voice' })).toBe(true);
    expect(matches(refused, { status: '2xx', path: '' })).toBe(false);
    expect(matches(refused, { status: '', path: 'speech' })).toBe(false);
  });

  it('copies a request as curl, the key from $VOICE_KIT_API_KEY, never the masked one', () => {
    expect(curlOf(entry({}), 'http://127.0.0.1:4010')).toBe(
      `curl -sS -X GET 'http://127.0.0.1:4010/v1/voice/list' -H "X-API-Key: $VOICE_KIT_API_KEY"`,
    );
    const speech = curlOf(entry({ method: 'POST', path: "/v1/text-to-speech/it's" }), 'http://h');
    expect(speech).toContain(`'http://h/v1/text-to-speech/it'\\''s'`);
    expect(speech).toContain("-d '{…}' -o speech.audio");
    const body = '{"generate_text":"It\'s me."}';
    expect(curlOf(entry({ method: 'POST', path: '/v1/text-to-speech', body }), 'http://h')).toContain(
      `-d '{"generate_text":"It'\\''s me."}'`,
    );
    expect(curlOf(entry({ method: 'POST', path: '/v1/files/upload', key: null }), 'http://h')).toBe(
      "curl -sS -X POST 'http://h/v1/files/upload' -F scene=audio -F file=@recording.wav",
    );
  });
});
