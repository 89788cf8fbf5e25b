import { describe, expect, it } from 'vitest';
import { answerLimitOf, audioLimitBytes, jsonLimitBytes, overLimitText } from './answer-limit.js';
import { answerLimitBytes, send } from './http.js';

describe('answer limits', () => {
  it('a short text: 10 s of 48 kHz stereo PCM plus 64 KiB', () => {
    expect(audioLimitBytes('Hello.')).toBe(1_985_536);
    expect(answerLimitOf('listVoices', undefined)).toBe(jsonLimitBytes);
  });

  it('a long text (the suite streams 4,000 characters) never lets an answer past the kit-wide limit', () => {
    // One second per character would be 768 MB: a deployment answering 300 MB held it all, twice.
    expect(audioLimitBytes('a'.repeat(4000))).toBe(answerLimitBytes);
    expect(audioLimitBytes('a'.repeat(4000), 0.25)).toBe(answerLimitBytes);
    expect(answerLimitOf('streamSpeech', { text: 'a'.repeat(20_000) })).toBe(answerLimitBytes);
    expect(overLimitText('streamSpeech', answerLimitBytes)).toMatch(/more than any answer the kit reads/);
    expect(overLimitText('streamSpeech', audioLimitBytes('Hi'))).toMatch(/the text asked for/);
  });
});

describe('send: an answer past its limit', () => {
  it('keeps only its first 64 KiB, never a copy of what was read', async () => {
    const chunk = new Uint8Array(1 << 20).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const fetchFn = async () => new Response(body, { headers: { 'content-type': 'audio/wav' } });
    const ex = await send(fetchFn, new Request('http://127.0.0.1/v1/text-to-speech/stream'), {
      limitBytes: 4 * 2 ** 20,
    });
    expect(ex.overLimit).toBe(4 * 2 ** 20);
    expect(ex.bytes.byteLength).toBe(64 * 1024);
    expect(ex.bytes.buffer.byteLength).toBe(64 * 1024);
    expect(sent).toBeLessThanOrEqual(8 * 2 ** 20);
  });
});
