import { describe, expect, it } from 'vitest';
import type { SynthesisRequest } from '../types.js';
import { mp3Chunks } from './mp3-encode.js';
import { mp3ByteLength } from './mp3-frames.js';
import { synthesize } from './synthesize.js';
import { systemVoices } from './voices.js';

/** What lamejs really makes of `samples` samples, fed in 100 ms chunks as the synthesizer feeds it. */
function encodedLength(samples: Int16Array, sampleRate: number): number {
  const chunk = Math.round(sampleRate / 10);
  const chunks = function* () {
    for (let at = 0; at < samples.length; at += chunk) yield samples.subarray(at, at + chunk);
  };
  let length = 0;
  for (const bytes of mp3Chunks(chunks(), sampleRate)) length += bytes.byteLength;
  return length;
}

/** Deterministic noise: the loudest, least compressible input there is. */
function noise(count: number, seed: number): Int16Array {
  const out = new Int16Array(count);
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    out[i] = (state >>> 16) - 32_768;
  }
  return out;
}

describe('mp3ByteLength: the size of the encoder output, from the sample count alone', () => {
  it.each([
    [8000, 576],
    [12_000, 576],
    [16_000, 576],
    [24_000, 576],
    [32_000, 1152],
    [48_000, 1152],
  ])('%i Hz: equals what lamejs makes, at every frame boundary and in between', (rate, frame) => {
    const counts = new Set<number>([0, 1, 2, 100, 10_007]);
    // Around the ends of the first frames and the 576-sample padding threshold of the flush.
    for (let k = 0; k <= 3; k++)
      for (const around of [k * frame, k * frame + 576])
        for (let d = -2; d <= 2; d++) if (around + d >= 0) counts.add(around + d);
    for (let i = 1; i <= 6; i++) counts.add((i * 7919) % 20_000);
    for (const count of counts) {
      const samples = count % 2 === 0 ? noise(count, count + 1) : new Int16Array(count);
      expect([count, mp3ByteLength(count, rate)]).toEqual([count, encodedLength(samples, rate)]);
    }
  });

  it.each([11_025, 22_050, 44_100, 96_000])(
    '%i Hz: not counted (frames differ in size, or no mp3)',
    (rate) => {
      expect(mp3ByteLength(24_000, rate)).toBeUndefined();
    },
  );

  it('equals the length of the synthesizer mp3 of texts, voices and speeds at 24 kHz', () => {
    const texts = [
      'Hi',
      '[laugh]',
      'Hello there, my friend! Is this a question?',
      'Numbers 1 2 3, dates 2024-05-01, and an e-mail: someone@example.com.',
      'Über naïve 音声 😀 text; with — dashes… and (parentheses).',
      'A longer sentence that goes on for a while, with commas, pauses; and a final question?',
    ];
    for (const [t, text] of texts.entries()) {
      const speed = [0.6, 1, 2.5][t % 3] as number;
      const voice = systemVoices[t % systemVoices.length] as SynthesisRequest['voice'];
      const stream = synthesize({
        text,
        voice,
        speed,
        format: 'mp3',
        ...(t % 2 ? { emotion: 'happy' } : {}),
      });
      let length = 0;
      for (const bytes of stream.chunks()) length += bytes.byteLength;
      expect([text, stream.byteLength]).toEqual([text, length]);
    }
  });
});
