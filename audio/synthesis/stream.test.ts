import { describe, expect, it } from 'vitest';
import type { SynthesisRequest, VoiceProfile } from '../types.js';
import { SynthesisCaches } from './caches.js';
import { synthesizeStream } from './stream.js';
import { synthesize, synthesizeToBytes } from './synthesize.js';
import { systemVoices } from './voices.js';

const voice = systemVoices[1] as VoiceProfile;
const read = (chunks: Iterable<Uint8Array>) => Buffer.concat([...chunks]);

describe('synthesizeStream (no MP3 encoder loaded)', () => {
  it.each(['wav', 'pcm'] as const)('gives %s chunks byte for byte as synthesize() does', (format) => {
    const request = { text: 'Streamed without the encoder. Same bytes?', voice, format, chunkMs: 40 };
    const plain = synthesizeStream(request);
    const full = synthesize(request);
    expect(plain.byteLength).toBe(full.byteLength);
    const bytes = read(plain.chunks());
    expect(bytes.length).toBe(plain.byteLength);
    expect(Buffer.compare(bytes, read(full.chunks()))).toBe(0);
  });

  it('starts a PCM stream without counting its text: its size is counted only when asked for', () => {
    const caches = new SynthesisCaches();
    const stream = synthesizeStream(
      { text: 'No header, so no count first. '.repeat(20), voice, format: 'pcm' },
      caches,
    );
    const chunks = stream.chunks();
    expect(chunks.next().value?.byteLength).toBe(4800);
    // A counting pass keeps its result in caches.plans: none was made before the first chunk.
    expect(caches.plans.size).toBe(0);
    const bytes = 4800 + read({ [Symbol.iterator]: () => chunks }).length;
    expect(stream.byteLength).toBe(bytes);
    expect(caches.plans.size).toBe(1);
    expect(stream.durationSeconds).toBe(bytes / 2 / 24_000);
  });

  // The chunks of an uncounted PCM plan against the counted WAV stream's: same samples, same cuts.
  const requests: SynthesisRequest[] = [
    { text: 'Hi.', voice, format: 'pcm' },
    { text: '...', voice, format: 'pcm', chunkMs: 1 },
    { text: '[laugh] Well, [whisper] that was a long day. Was it? Yes!', voice, format: 'pcm', chunkMs: 40 },
    {
      text: 'Slow and low, at eight kilohertz. '.repeat(8),
      voice,
      format: 'pcm',
      speed: 0.3,
      sampleRate: 8000,
    },
    {
      text: 'Quick, at 44.1 kHz, in chunks of a third of a second. '.repeat(12),
      voice,
      format: 'pcm',
      speed: 3.5,
      sampleRate: 44_100,
      chunkMs: 333,
    },
    {
      text: 'Émotion — et façon: ¿qué tal? 12 345. '.repeat(5),
      voice: systemVoices[0] as VoiceProfile,
      format: 'pcm',
      emotion: 'sad',
      language: 'fr',
    },
  ];
  it.each(requests.map((r) => [r.text.slice(0, 24), r] as const))(
    'gives a PCM stream of %j the chunks of the counted WAV stream, byte for byte and cut for cut',
    (_, request) => {
      const caches = new SynthesisCaches();
      const pcm = [...synthesizeStream(request, caches).chunks()];
      const wav = [...synthesizeStream({ ...request, format: 'wav' }).chunks()];
      expect(pcm.map((c) => c.byteLength)).toEqual(wav.map((c, i) => c.byteLength - (i === 0 ? 44 : 0)));
      expect(Buffer.compare(read(pcm), read(wav).subarray(44))).toBe(0);
      expect(Buffer.compare(read(pcm), Buffer.from(synthesizeToBytes(request)))).toBe(0);
      // Once its size is counted (a complete answer's Content-Length), it is planned from the memo.
      const counted = synthesizeStream(request, caches);
      expect(counted.byteLength).toBe(read(pcm).length);
      expect(caches.plans.size).toBe(1);
      expect(Buffer.compare(read(counted.chunks()), read(pcm))).toBe(0);
    },
  );

  it('refuses mp3 without an encoder instead of sending something else', () => {
    expect(() => synthesizeStream({ text: 'Hi', voice, format: 'mp3' })).toThrow(/mp3 needs the encoder/);
  });
});
