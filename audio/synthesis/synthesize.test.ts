import { createHash } from 'node:crypto';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { audioMediaTypes } from '../../openapi/contract.js';
import { analyze } from '../analysis/analyze.js';
import type { SynthesisRequest } from '../types.js';
import { synthesize, synthesizeToBytes } from './synthesize.js';
import { findSystemVoice, systemVoices } from './voices.js';

const voice = findSystemVoice('system_default') ?? (systemVoices[0] as NonNullable<(typeof systemVoices)[0]>);
const text = 'Hello there, my friend! This is a short test of the fake voice. Does it sound like speech?';
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const concat = (parts: readonly Uint8Array[]): Uint8Array => Buffer.concat(parts);
const request = (extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
  text,
  voice,
  format: 'wav',
  ...extra,
});

/**
 * Golden hash of one short request. It changes whenever the synthesizer's output changes: when that is
 * deliberate, regenerate it (print `sha256(synthesizeToBytes(golden))`) and say so in the commit.
 */
const golden: SynthesisRequest = { text: 'Golden test, one two three?', voice, format: 'wav' };
const goldenSha256 = '5a00c09d3bb31c41ece5fcf7c2d39d92be2b422d891e379ac05c75afdaee0565';

describe('synthesize: determinism', () => {
  it.each(['wav', 'pcm', 'mp3'] as const)('%s: the same request gives the same bytes', (format) => {
    const first = sha256(synthesizeToBytes(request({ format })));
    expect(sha256(synthesizeToBytes(request({ format })))).toBe(first);
  });

  it('matches the golden hash of a fixed request (regenerate deliberately when the synth changes)', () => {
    expect(sha256(synthesizeToBytes(golden))).toBe(goldenSha256);
  });

  it('restarts identically on every chunks() call', () => {
    const stream = synthesize(request({ format: 'pcm' }));
    expect(sha256(concat([...stream.chunks()]))).toBe(sha256(concat([...stream.chunks()])));
  });
});

describe('synthesize: streaming', () => {
  it.each([
    ['wav', 100],
    ['wav', 37],
    ['wav', 1000],
    ['pcm', 100],
    ['pcm', 20],
  ] as const)('%s at %i ms: the chunks concatenate to exactly the complete result', (format, chunkMs) => {
    const stream = synthesize(request({ format, chunkMs }));
    const joined = concat([...stream.chunks()]);
    expect(joined.length).toBe(stream.byteLength);
    expect(sha256(joined)).toBe(sha256(synthesizeToBytes(request({ format }))));
  });

  it.each([
    ['wav', 100, 44],
    ['pcm', 100, 0],
    ['pcm', 250, 0],
  ] as const)(
    '%s at %i ms: each chunk holds chunkMs of audio (the first also the %i-byte header)',
    (format, chunkMs, header) => {
      const stream = synthesize(request({ format, chunkMs }));
      const sizes = [...stream.chunks()].map((c) => c.length);
      const full = ((stream.sampleRate * chunkMs) / 1000) * 2;
      expect(sizes[0]).toBe(full + header);
      for (const size of sizes.slice(1, -1)) expect(size).toBe(full);
      expect(sizes.at(-1)).toBeLessThanOrEqual(full);
      expect(sizes.length).toBe(Math.ceil((stream.durationSeconds * 1000) / chunkMs));
    },
  );
});

describe('synthesize: formats', () => {
  it('wav: canonical 44-byte header with exact sizes, decodable by wavefile', () => {
    const bytes = synthesizeToBytes(request());
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(bytes.length - 8);
    expect(new TextDecoder().decode(bytes.subarray(36, 40))).toBe('data');
    expect(view.getUint32(40, true)).toBe(bytes.length - 44);
    const wav = new wavefile.WaveFile(bytes);
    const fmt = wav.fmt as {
      sampleRate: number;
      numChannels: number;
      bitsPerSample: number;
      audioFormat: number;
    };
    expect(fmt).toMatchObject({ sampleRate: 24000, numChannels: 1, bitsPerSample: 16, audioFormat: 1 });
    expect((wav.getSamples(false, Int16Array) as unknown as Int16Array).length).toBe((bytes.length - 44) / 2);
  });

  it.each([
    ['wav', 24000],
    ['pcm', 24000],
    ['wav', 16000],
    ['pcm', 48000],
  ] as const)('%s at %i Hz: metadata for the HTTP headers matches the bytes', (format, sampleRate) => {
    const stream = synthesize(request({ format, sampleRate }));
    expect(stream).toMatchObject({
      format,
      mediaType: audioMediaTypes[format],
      sampleRate,
      channels: 1,
      bitDepth: 16,
    });
    const header = format === 'wav' ? 44 : 0;
    expect(stream.byteLength).toBe(header + Math.round(stream.durationSeconds * sampleRate) * 2);
  });

  it('mp3: decodable, duration within 10% of the planned one, its exact byte length up front', async () => {
    const stream = synthesize(request({ format: 'mp3' }));
    expect(stream.mediaType).toBe(audioMediaTypes.mp3);
    const bytes = concat([...stream.chunks()]);
    expect(stream.byteLength).toBe(bytes.byteLength);
    const meta = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { duration: true });
    expect(meta.format.codec).toMatch(/MPEG.*layer 3/i);
    expect(meta.format.sampleRate).toBe(24000);
    expect(meta.format.duration).toBeGreaterThan(stream.durationSeconds * 0.9);
    expect(meta.format.duration).toBeLessThan(stream.durationSeconds * 1.1);
  });

  it('mp3: a sample rate MPEG audio cannot carry is refused', () => {
    expect(() => synthesizeToBytes(request({ format: 'mp3', sampleRate: 96000 }))).toThrow(RangeError);
  });

  // Tags that take time are played even alone (synthesize-prosody.test.ts); these give nothing to play.
  it.each(['', '   ', '[unknown tag]', '[whisper]', ' [ ] , . '])(
    'text %j with nothing to say yields a short silence',
    (t) => {
      const stream = synthesize(request({ text: t, format: 'pcm' }));
      expect(stream.durationSeconds).toBeGreaterThan(0.1);
      expect(stream.durationSeconds).toBeLessThan(0.5);
      expect(concat([...stream.chunks()]).every((b) => b === 0)).toBe(true);
    },
  );
});

describe('synthesize: the kit accepts its own speech', () => {
  it.each(systemVoices.map((v) => [v.id, v] as const))(
    '%s: a synthesized sample passes the reference analysis',
    async (_, v) => {
      const bytes = synthesizeToBytes({ text: `${text} ${text}`, voice: v, format: 'wav' });
      const analysis = await analyze(bytes);
      expect(analysis).toMatchObject({ ok: true, decoded: true });
      if (!analysis.ok) return;
      expect(analysis.durationSeconds).toBeGreaterThan(5);
      expect(analysis.durationSeconds).toBeLessThan(25);
      expect(analysis.speechSeconds).toBeGreaterThan(3);
      expect(analysis.pitchHz).toBeGreaterThan(v.pitchHz * 0.85);
      expect(analysis.pitchHz).toBeLessThan(v.pitchHz * 1.15);
    },
  );
});
