import { describe, expect, it, vi } from 'vitest';
import { readCommittedFixture } from '../../fixtures/committed.js';
import { sniff } from '../containers/sniff.js';
import { speechLike, writeMp3 } from '../test/signals.js';
import { canDecode, decodeCompressed } from './decode-compressed.js';

describe('canDecode', () => {
  it.each([
    ['mp3', 'mp3', true],
    ['ogg', 'opus', true],
    ['ogg', 'vorbis', true],
    ['webm', 'opus', true],
    ['webm', 'vorbis', false],
    ['m4a', 'aac', false],
    ['wav', 'pcm_s16le', false],
  ] as const)('%s holding %s → %s', (container, codec, expected) => {
    expect(canDecode(container, codec)).toBe(expected);
  });
});

describe('decodeCompressed', () => {
  const options = { analysisRateHz: 4000, maxSeconds: 61 };

  it.each([
    ['speech-mp3', 22050, 4410],
    ['speech-opus-ogg', 48000, 4000],
    ['speech-vorbis-ogg', 22050, 4410],
    ['speech-opus-webm', 48000, 4000],
  ])('decodes %s at %i Hz to mono near 4 kHz (%i Hz)', async (id, sourceRate, sampleRate) => {
    const bytes = await readCommittedFixture(id);
    const decoded = await decodeCompressed(bytes, sniff(bytes), options);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.signal).toMatchObject({ sourceRate, sampleRate });
    expect(decoded.signal.seconds).toBeGreaterThan(7.5);
    expect(decoded.signal.seconds).toBeLessThan(7.7);
    expect(decoded.signal.samples.length).toBe(Math.floor(decoded.signal.seconds * sampleRate + 1e-6));
  });

  it.each([
    [
      'an MP3 (LAME, 32 kbit/s: 8 KiB per call is 2 s)',
      async () => writeMp3([speechLike({ seconds: 20, sampleRate: 16000 })], 16000, 32),
    ],
    ['an Ogg Opus file (24 kbit/s)', async () => readCommittedFixture('speech-opus-ogg')],
    ['a WebM Opus file', async () => readCommittedFixture('speech-opus-webm')],
  ])('stops soon after maxSeconds: %s', async (_name, make) => {
    const bytes = await make();
    const decoded = await decodeCompressed(bytes, sniff(bytes), { ...options, maxSeconds: 2 });
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.signal.seconds).toBeGreaterThan(2);
    expect(decoded.signal.seconds).toBeLessThan(5);
  });

  it('refuses what it has no decoder for, without throwing', async () => {
    const bytes = await readCommittedFixture('speech-m4a');
    expect(await decodeCompressed(bytes, sniff(bytes), options)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/m4a file, which the kit cannot decode/),
    });
  });

  it('turns a decoder that throws into a refusal', async () => {
    // An Ogg file that says Opus in its first page and then carries a Vorbis stream: the decoder throws.
    const opus = await readCommittedFixture('speech-opus-ogg');
    const vorbis = await readCommittedFixture('speech-vorbis-ogg');
    const decoded = await decodeCompressed(
      vorbis,
      { ...sniff(opus), container: 'ogg', codec: 'opus' },
      options,
    );
    expect(decoded).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/cannot be decoded \(.*codec/),
    });
  });

  it('stops at the first frame the decoder rejects', async () => {
    const silenced = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bytes = (await readCommittedFixture('speech-mp3')).slice();
    bytes.fill(0xff, 12_000, 16_000);
    const decoded = await decodeCompressed(bytes, sniff(bytes), options);
    silenced.mockRestore();
    expect(decoded).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^is corrupt: its decoder rejects a frame/),
    });
  });
});
