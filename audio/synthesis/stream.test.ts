import { describe, expect, it } from 'vitest';
import type { VoiceProfile } from '../types.js';
import { synthesizeStream } from './stream.js';
import { synthesize } from './synthesize.js';
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

  it('refuses mp3 without an encoder instead of sending something else', () => {
    expect(() => synthesizeStream({ text: 'Hi', voice, format: 'mp3' })).toThrow(/mp3 needs the encoder/);
  });
});
