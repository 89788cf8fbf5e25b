import { describe, expect, it } from 'vitest';
import * as audio from '../../../audio/index.js';
import type { SynthesisRequest } from '../../../audio/types.js';
import { BytesAnswer, StreamAnswer } from '../answer/answer.js';
import type { AudioEngine } from '../context.js';
import { createMockService } from '../service.js';
import {
  type CompleteAudio,
  CompleteAudioCache,
  completeCacheMaxEntryBytes,
} from './complete-audio-cache.js';

const entry = (bytes: number): CompleteAudio => ({
  meta: { mediaType: 'audio/wav', sampleRate: 24_000, channels: 1, bitDepth: 16 },
  bytes: new Uint8Array(bytes),
});

describe('CompleteAudioCache (LRU bounded by bytes)', () => {
  it('evicts the least recently used entries past its byte budget', () => {
    const cache = new CompleteAudioCache(100, 60);
    cache.set('a', entry(40));
    cache.set('b', entry(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', entry(40));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(cache.byteSize).toBe(80);
  });

  it('keeps no entry larger than its per-entry limit, and counts a replaced entry once', () => {
    const cache = new CompleteAudioCache(100, 60);
    cache.set('big', entry(61));
    expect([cache.count, cache.byteSize]).toEqual([0, 0]);
    cache.set('a', entry(10));
    cache.set('a', entry(20));
    expect([cache.count, cache.byteSize]).toEqual([1, 20]);
  });

  const voice = audio.systemVoices[0] as SynthesisRequest['voice'];
  const base: SynthesisRequest = { text: 'Hi', voice, format: 'mp3', chunkMs: 100 };
  it.each([
    ['text', { text: 'Hi!' }],
    ['format', { format: 'wav' }],
    ['speed', { speed: 2 }],
    ['emotion', { emotion: 'happy' }],
    ['language', { language: 'fr' }],
    ['voice profile (same id, other pitch)', { voice: { ...voice, pitchHz: voice.pitchHz + 1 } }],
    ['chunk length', { chunkMs: 50 }],
  ] as [string, Partial<SynthesisRequest>][])('the key tells requests apart by %s', (_name, change) => {
    expect(CompleteAudioCache.key({ ...base, ...change })).not.toBe(CompleteAudioCache.key(base));
  });
});

describe('complete synthesis through the service', () => {
  it('synthesizes an identical request once, answers the same bytes, and still bills each request', async () => {
    let calls = 0;
    const engine: AudioEngine = {
      ...audio,
      synthesize(request) {
        calls += 1;
        return audio.synthesize(request);
      },
    };
    const service = createMockService({ audio: engine, logger: { error: () => {} } });
    const request = () =>
      new Request('http://mock.test/v1/text-to-speech', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: 'Twice the same.', audio_format: 'mp3' }),
      });
    const first = new Uint8Array(await (await service.fetch(request())).arrayBuffer());
    const second = await service.fetch(request());
    expect(second.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.compare(new Uint8Array(await second.arrayBuffer()), first)).toBe(0);
    expect(calls).toBe(1);
    const usage = service.state.ledger.snapshot();
    expect(Object.values(usage)[0]?.synthesizedCharacters).toBe(2 * 'Twice the same.'.length);
  });
});

describe('complete synthesis through the service: what the cache keeps', () => {
  const service = createMockService({ logger: { error: () => {} } });
  const request = (text: string, format = 'wav') =>
    new Request('http://mock.test/v1/text-to-speech', {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ generate_text: text, audio_format: format }),
    });
  const read = async (answer: unknown) =>
    new Uint8Array(await (answer as BytesAnswer | StreamAnswer).toResponse().arrayBuffer());

  it('keeps a small answer once it is sent whole, and answers an identical request from memory', async () => {
    service.state.caches.clear();
    const first = await service.answer(request('Small enough to keep.'));
    expect(first).toBeInstanceOf(StreamAnswer);
    expect(service.state.caches.completeAudio.count).toBe(0);
    const bytes = await read(first);
    expect(service.state.caches.completeAudio.byteSize).toBe(bytes.byteLength);
    const again = await service.answer(request('Small enough to keep.'));
    expect(again).toBeInstanceOf(BytesAnswer);
    expect(Buffer.compare(await read(again), bytes)).toBe(0);
  });

  it('keeps nothing of an answer larger than an entry may be (8 MiB), nor of one its reader left', async () => {
    service.state.caches.clear();
    // ~3 minutes of speech: ~9 MB of WAV.
    const long = 'A story that goes on for a while, with commas, pauses; and questions? '.repeat(30);
    const bytes = await read(await service.answer(request(long)));
    expect(bytes.byteLength).toBeGreaterThan(completeCacheMaxEntryBytes);
    expect(service.state.caches.completeAudio.count).toBe(0);
    const left = (await service.answer(request('Left before the end.'))).toResponse();
    const reader = (left.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(service.state.caches.completeAudio.count).toBe(0);
  });
});
