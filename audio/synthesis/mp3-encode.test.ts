import { createHash } from 'node:crypto';
import { Mp3Encoder } from '@breezystack/lamejs';
import { describe, expect, it } from 'vitest';
import type { SynthesisRequest, VoiceProfile } from '../types.js';
import { SynthesisCaches } from './caches.js';
import { MP3_KBPS, mp3Chunks, primedEncoder } from './mp3-encode.js';
import { PrimedMp3Encoders } from './mp3-primed.js';
import { synthesizeStream } from './stream.js';
import { synthesize } from './synthesize.js';
import { systemVoices } from './voices.js';

const texts = [
  'Hi',
  'Hello there, my friend! Is this a question?',
  'Numbers 1 2 3, dates 2024-05-01, and an e-mail: someone@example.com. [laugh] Then more.',
  'Über naïve 音声 😀 text; with — dashes… and (parentheses).',
  'A fair share of the speech, streamed while others stream too, word after word.',
];

/**
 * What main (380cf13) streamed for these requests, before primed encoders and the early first frame:
 * [text, voice, speed, rate, chunk ms, emotion, number of chunks, sha-256 of the bytes (16 digits)].
 * Recorded by running main's synthesize() on them; the number of chunks is what pacing counts.
 */
const main: [number, string, number, number, number, string, number, string][] = [
  [0, 'system_default', 0.6, 24000, 100, 'happy', 15, 'f3c4bf5842778e26'],
  [2, 'system_female_bright', 1, 24000, 100, '', 122, 'ce16d1382a1b2505'],
  [1, 'system_male_deep', 2.5, 24000, 20, '', 84, '6ff2fc2022bb552a'],
  [3, 'system_male_warm', 1.3, 24000, 20, 'happy', 181, 'fc70a076c8d661cd'],
  [2, 'system_child', 0.6, 16000, 40, '', 463, 'bdd04e953e84774a'],
  [4, 'system_default', 1, 16000, 40, '', 160, 'ed00bf1f67d6387f'],
  [3, 'system_female_bright', 2.5, 48000, 100, 'happy', 24, '4631da48a425cc72'],
  [0, 'system_male_deep', 1.3, 48000, 100, '', 10, '93b55a53096ef5f0'],
  [4, 'system_male_warm', 0.6, 8000, 250, '', 46, '0bd54c5e59dddf3e'],
  [1, 'system_child', 1, 8000, 250, 'happy', 16, '7f9760006c782522'],
  [0, 'system_default', 2.5, 22050, 100, '', 7, '4bdbba9114a03b5e'],
  [2, 'system_female_bright', 1.3, 22050, 100, '', 94, '07e63287e7069e7f'],
  [1, 'system_male_deep', 0.6, 24000, 7, 'happy', 300, '9466385b4fec9c14'],
  [3, 'system_male_warm', 1, 24000, 7, '', 249, '86a5f8caed6f7ca1'],
  [2, 'system_child', 2.5, 32000, 33, '', 127, '326058d467fb3e48'],
  [4, 'system_default', 1.3, 32000, 33, 'happy', 128, 'c223476918e4ba78'],
];

const requestOf = ([t, voiceId, speed, sampleRate, chunkMs, emotion]: (typeof main)[number]) =>
  ({
    text: texts[t] as string,
    voice: systemVoices.find((voice) => voice.id === voiceId) as VoiceProfile,
    speed,
    sampleRate,
    chunkMs,
    format: 'mp3',
    ...(emotion ? { emotion } : {}),
  }) satisfies SynthesisRequest;

const digest = (chunks: readonly Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex').slice(0, 16);
};

describe('mp3 streams: the bytes and the chunks of main, sooner', () => {
  it('gives main’s bytes and number of chunks, with and without a primed encoder', () => {
    // One primed encoder at most: the streams here are of many shapes, and each would make primed encoders up to 50.
    const primedEncoders = new PrimedMp3Encoders(1);
    const withPrimed = (request: SynthesisRequest) =>
      synthesizeStream(request, undefined, (pcm, rate) => mp3Chunks(pcm, rate, MP3_KBPS, primedEncoders));
    let primedTaken = 0;
    for (const row of main) {
      const request = requestOf(row);
      const expected = [row[0], request.sampleRate, request.chunkMs, row[6], row[7]];
      // A primed encoder of this shape ready, as a mock that streamed mp3 before has.
      primedEncoders.restock(request.sampleRate, MP3_KBPS, () => primedEncoder(request.sampleRate), 1);
      const chunks = withPrimed(request).chunks();
      const first = chunks.next().value as Uint8Array;
      const taken = primedEncoders.size === 0;
      if (taken) primedTaken += 1;
      const all = [first, ...chunks];
      expect([row[0], request.sampleRate, request.chunkMs, all.length, digest(all)]).toEqual(expected);
      // Without a primed encoder: where none fitted, the stream above made its own encoder as this one does
      // (the encoding is the slow part, so that row is not encoded twice).
      if (!taken) continue;
      const plain = [...synthesize(request).chunks()];
      expect([row[0], request.sampleRate, request.chunkMs, plain.length, digest(plain)]).toEqual(expected);
    }
    // The 100 ms chunks at 16 kHz and up begin with the synthesizer's silence; 8 kHz and the short
    // chunks do not hold a primed encoder's whole silence in their first chunk, and make their own encoder.
    expect(primedTaken).toBe(6);
  });

  it('gives main’s bytes and number of chunks with pauses asked for, a pause inside each long chunk', () => {
    const primedEncoders = new PrimedMp3Encoders(1);
    // The rows of short audio that hold every case of the pauses: chunks of more and of fewer samples
    // than a granule, a primed encoder taken and not, MPEG-1, -2 and -2.5 rates (the encoding is the slow part).
    const rows = [0, 2, 7, 9, 10, 12, 14].map((i) => main[i] as (typeof main)[number]);
    for (const row of rows) {
      const request = requestOf(row);
      const expected = [row[0], request.sampleRate, request.chunkMs, row[6], row[7]];
      for (const withPrimed of [false, true]) {
        if (withPrimed)
          primedEncoders.restock(request.sampleRate, MP3_KBPS, () => primedEncoder(request.sampleRate), 1);
        const stream = synthesizeStream(request, undefined, (pcm, rate, pauses) =>
          mp3Chunks(pcm, rate, MP3_KBPS, withPrimed ? primedEncoders : undefined, pauses),
        );
        const all = [...stream.chunks({ pauses: true })];
        const chunks = all.filter((chunk) => chunk.length > 0);
        expect([row[0], request.sampleRate, request.chunkMs, chunks.length, digest(chunks)]).toEqual(
          expected,
        );
        // A chunk of more than one granule (576 samples) is encoded in pieces, a pause between two.
        const samples = (request.sampleRate * request.chunkMs) / 1000;
        const pauses = all.length - chunks.length;
        if (samples > 576) expect(pauses).toBeGreaterThanOrEqual(chunks.length - 2);
        else expect(pauses).toBeGreaterThan(0);
      }
    }
  });

  it('sends the first frame alone as the first chunk (main sent three, after making the encoder)', () => {
    const request = requestOf(main[1] as (typeof main)[number]);
    const caches = new SynthesisCaches();
    for (const withCaches of [undefined, caches, caches]) {
      const first = synthesize(request, withCaches).chunks().next().value as Uint8Array;
      // One MPEG-2 frame at 24 kHz and 64 kbit/s: 192 bytes, its sync word first.
      expect([first.length, first[0], (first[1] as number) >> 5]).toEqual([192, 0xff, 0b111]);
    }
  });

  it('encodes PCM that does not begin with silence as a new encoder does, and leaves the primed encoders', () => {
    const samples = Int16Array.from({ length: 9000 }, (_, i) => Math.round(8000 * Math.sin(i / 7)));
    const chunks = () => [samples.subarray(0, 2400), samples.subarray(2400, 4800), samples.subarray(4800)];
    const reference = new Mp3Encoder(1, 24_000, MP3_KBPS);
    const whole = [...chunks().map((chunk) => reference.encodeBuffer(chunk)), reference.flush()];
    const primedEncoders = new PrimedMp3Encoders(8);
    primedEncoders.restock(24_000, MP3_KBPS, () => primedEncoder(24_000), 1);
    const out = [...mp3Chunks(chunks(), 24_000, MP3_KBPS, primedEncoders)];
    expect(Buffer.concat(out)).toEqual(Buffer.concat(whole.map((bytes) => new Uint8Array(bytes))));
    expect(out.length).toBe(whole.filter((bytes) => bytes.length > 0).length);
    // Not taken (its silence did not fit); one more made after each chunk sent.
    expect(primedEncoders.size).toBe(1 + out.length);
    // In pieces, with pauses: the same chunks, each one's bytes copied out of the encoder's.
    const bare = [...mp3Chunks(chunks(), 24_000, MP3_KBPS, undefined, true)];
    expect(bare.filter((bytes) => bytes.length > 0)).toEqual(out);
    expect(bare.length).toBeGreaterThan(out.length + 8);
    // A primed encoder made after a chunk is two pieces more: the encoder built, then fed its silence.
    const room = primedEncoders.capacity - primedEncoders.size;
    const paused = [...mp3Chunks(chunks(), 24_000, MP3_KBPS, primedEncoders, true)];
    expect(paused.filter((bytes) => bytes.length > 0)).toEqual(out);
    expect([room > 0, paused.length - bare.length, primedEncoders.size]).toEqual([
      true,
      2 * room,
      primedEncoders.capacity,
    ]);
  });
});

describe('PrimedMp3Encoders', () => {
  it('is fed silence until its first frame, one frame of this shape', () => {
    expect([primedEncoder(24_000).silence, primedEncoder(24_000).firstFrame.length]).toEqual([800, 192]);
    expect([primedEncoder(48_000).silence, primedEncoder(48_000).firstFrame.length]).toEqual([1376, 192]);
  });

  it('hands out primed encoders of the shape asked for, only when their silence fits, up to its capacity', () => {
    const primedEncoders = new PrimedMp3Encoders(3);
    primedEncoders.restock(24_000, 64, () => primedEncoder(24_000), 5);
    expect(primedEncoders.size).toBe(3);
    expect(primedEncoders.take(16_000, 64, () => true)).toBeUndefined();
    expect(primedEncoders.take(24_000, 32, () => true)).toBeUndefined();
    expect(primedEncoders.take(24_000, 64, (silence) => silence > 800)).toBeUndefined();
    expect(primedEncoders.take(24_000, 64, (silence) => silence === 800)?.silence).toBe(800);
    expect(primedEncoders.size).toBe(2);
    // Another shape empties them first.
    primedEncoders.restock(16_000, 64, () => primedEncoder(16_000), 1);
    expect(primedEncoders.size).toBe(1);
    primedEncoders.clear();
    expect(primedEncoders.size).toBe(0);
  });

  it('are made after each chunk a stream sends, up to their capacity, counted in the caches, emptied with them', () => {
    const caches = new SynthesisCaches();
    const request = requestOf(main[0] as (typeof main)[number]);
    const chunks = [...synthesize(request, caches).chunks()];
    expect([chunks.length, caches.primedMp3Encoders.size]).toEqual([15, 15]);
    const dropped = synthesize(request, caches).chunks();
    dropped.next();
    // Taken before the first chunk; none made before it, nor after the stream is dropped.
    expect(caches.primedMp3Encoders.size).toBe(14);
    dropped.return();
    expect(caches.primedMp3Encoders.size).toBe(14);
    for (let i = 0; i < 4; i++) for (const _ of synthesize(request, caches).chunks());
    expect(caches.primedMp3Encoders.size).toBe(caches.primedMp3Encoders.capacity);
    expect(caches.size).toBeGreaterThan(caches.primedMp3Encoders.capacity);
    caches.clear();
    expect([caches.primedMp3Encoders.size, caches.size]).toEqual([0, 0]);
  });
});
