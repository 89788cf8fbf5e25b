import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCommittedFixture } from '../../fixtures/committed.js';
import { analyze } from '../analysis/analyze.js';
import { webmAudioFrames } from '../containers/webm.js';
import type { Analysis, AnalysisAccepted } from '../types.js';

function expectAccepted(analysis: Analysis): AnalysisAccepted {
  if (!analysis.ok) throw new Error(`expected acceptance, got ${analysis.verdict}: ${analysis.reason}`);
  return analysis;
}

/** What the analysis measures on the espeak-ng WAV all compressed speech fixtures were encoded from. */
const original = { durationSeconds: 7.57, speechSeconds: 6.78, pitchHz: 102 };
/** The WAV original's exact length: 167,005 samples at 22.05 kHz. */
const originalSeconds = 167_005 / 22_050;

describe('compressed speech fixtures are decoded and measured like their WAV original', () => {
  it('measures the WAV original as the tolerances below assume', async () => {
    const wav = expectAccepted(await analyze(await readCommittedFixture('speech-espeak-wav')));
    expect(wav.durationSeconds).toBeCloseTo(original.durationSeconds, 2);
    expect(wav.speechSeconds).toBeCloseTo(original.speechSeconds, 2);
    expect(wav.pitchHz).toBeCloseTo(original.pitchHz, 0);
  });

  it.each([
    ['speech-mp3', 'mp3', 'mp3'],
    ['speech-opus-ogg', 'ogg', 'opus'],
    ['speech-vorbis-ogg', 'ogg', 'vorbis'],
    ['speech-opus-file', 'ogg', 'opus'],
    ['speech-opus-webm', 'webm', 'opus'],
    ['speech-streamed-webm', 'webm', 'opus'],
  ])(
    '%s (%s, %s): decoded, speech within 0.3 s of the WAV, pitch within 15 %%',
    async (id, container, codec) => {
      const analysis = expectAccepted(await analyze(await readCommittedFixture(id)));
      expect(analysis).toMatchObject({ container, codec, decoded: true, channels: 1 });
      // The real length, without the encoder's priming and padding (the LAME tag, Opus pre-skip and
      // DiscardPadding record them): the WAV's to the sample (Opus counts 48 kHz samples).
      expect(Math.abs(analysis.durationSeconds - originalSeconds)).toBeLessThan(0.0001);
      expect(Math.abs((analysis.speechSeconds ?? 0) - original.speechSeconds)).toBeLessThan(0.3);
      expect(analysis.speechFraction).toBeGreaterThan(0.8);
      expect(analysis.longestPauseSeconds).toBeLessThan(1);
      expect(Math.abs((analysis.pitchHz ?? 0) / original.pitchHz - 1)).toBeLessThan(0.15);
    },
  );

  it('leaves M4A (AAC) undecoded: accepted on its header, with no speech measures', async () => {
    const analysis = expectAccepted(await analyze(await readCommittedFixture('speech-m4a')));
    // The edit list's 7574 ms, cut to the media less its 1024 samples of priming: the WAV's length.
    expect(analysis.durationSeconds).toBeCloseTo(originalSeconds, 6);
    expect(analysis).toMatchObject({
      container: 'm4a',
      codec: 'aac',
      decoded: false,
      speechFraction: null,
      speechSeconds: null,
      longestPauseSeconds: null,
      pitchHz: null,
    });
  });
});

describe('compressed refusals that need the decoded audio', () => {
  it.each([
    ['silence-mp3', 'mp3', 'insufficient-speech', /holds 0\.00 s of speech/],
    ['tone-opus-webm', 'webm', 'insufficient-speech', /holds 0\.00 s of speech/],
    ['pause-mp3', 'mp3', 'pause-too-long', /a pause of 8\.\d+ s/],
    ['pause-opus-ogg', 'ogg', 'pause-too-long', /a pause of 8\.\d+ s/],
  ])('%s (%s) → %s', async (id, container, verdict, reason) => {
    const analysis = await analyze(await readCommittedFixture(id));
    expect(analysis).toMatchObject({ ok: false, container, verdict });
    if (!analysis.ok) expect(analysis.reason).toMatch(reason);
  });

  it.each([
    'speech-mp3',
    'speech-opus-ogg',
    'speech-vorbis-ogg',
    'speech-opus-webm',
    'pause-opus-ogg',
    'tone-opus-webm',
  ])('is deterministic: %s gives the same analysis twice', async (id) => {
    const bytes = await readCommittedFixture(id);
    expect(await analyze(bytes)).toEqual(await analyze(bytes));
  });
});

/** Start of the `index`-th Ogg page (0-based) and of its first packet. */
function oggPage(bytes: Uint8Array, index: number): { start: number; packet: number } {
  let at = 0;
  for (let page = 0; ; page++) {
    const segments = bytes[at + 26] as number;
    const table = bytes.subarray(at + 27, at + 27 + segments);
    if (page === index) return { start: at, packet: at + 27 + segments };
    at += 27 + segments + table.reduce((sum, length) => sum + length, 0);
  }
}

/** An Opus packet the decoder must reject: TOC code 3 (several frames) with a frame count of 0. */
const invalidOpus = [0xff, 0x00];

async function damaged(id: string, damage: (bytes: Uint8Array) => void): Promise<Uint8Array> {
  const bytes = (await readCommittedFixture(id)).slice();
  damage(bytes);
  return bytes;
}

describe('corrupt or truncated compressed files are unsupported, never a throw', () => {
  // The wasm decoders log each bad frame to the console themselves; the verdict is what is tested.
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    [
      'an MP3 with 4 KB of garbage amid its frames',
      () =>
        damaged('speech-mp3', (bytes) => {
          for (let i = 20_000; i < 24_096; i++) bytes[i] = (i * 7919 + 13) & 0xff;
        }),
      /MP3 .* corrupt: its decoder rejects a frame/,
    ],
    [
      'an Ogg Opus file whose first audio packet is invalid',
      () => damaged('speech-opus-ogg', (bytes) => bytes.set(invalidOpus, oggPage(bytes, 2).packet)),
      /Opus .* corrupt: its decoder rejects a frame \(libopus -4/,
    ],
    [
      'an Ogg Vorbis file with a damaged codebook in its setup header',
      () =>
        damaged('speech-vorbis-ogg', (bytes) => {
          const setup = Buffer.from(bytes).indexOf('\x05vorbis', 0, 'latin1');
          bytes[setup + 8] = (bytes[setup + 8] as number) ^ 0xff; // the first codebook's sync pattern
        }),
      /Vorbis .* corrupt: its decoder rejects a frame/,
    ],
    [
      'a WebM Opus file whose frames are all invalid',
      () =>
        damaged('speech-opus-webm', (bytes) => {
          const audio = webmAudioFrames(bytes);
          if (typeof audio === 'string') throw new Error(audio);
          for (const frame of audio.frames) frame.set(invalidOpus);
        }),
      /WebM .* corrupt: its decoder rejects a frame \(libopus -4/,
    ],
    [
      'a WebM Opus file without an OpusHead in its CodecPrivate',
      () =>
        damaged('speech-opus-webm', (bytes) => {
          bytes[Buffer.from(bytes).indexOf('OpusHead', 0, 'latin1')] = 0x78;
        }),
      /WebM .* without an OpusHead/,
    ],
    [
      'an Ogg Vorbis file cut inside its headers',
      async () => (await readCommittedFixture('speech-vorbis-ogg')).subarray(0, 1000),
      /Ogg file with Vorbis that/,
    ],
    [
      'an Ogg Opus file cut after its header pages, before any audio',
      async () => {
        const bytes = await readCommittedFixture('speech-opus-ogg');
        return bytes.subarray(0, oggPage(bytes, 2).start);
      },
      /Ogg file with Opus that has no readable duration/,
    ],
  ])('%s', async (_name, make, reason) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const analysis = await analyze(await make());
    expect(analysis).toMatchObject({ ok: false, verdict: 'unsupported' });
    if (!analysis.ok) expect(analysis.reason).toMatch(reason);
  });

  it.each([
    ['1 time (its own Xing header, whose LAME tag gives the WAV original’s length)', 1, 'accepted', 7.57],
    ['twice (the first Xing header now understates)', 2, 'accepted', 15.23],
    ['9 times (68 s behind a 7.6 s Xing header)', 9, 'too-long', undefined],
  ])('judges speech.mp3 concatenated %s by its decoded length', async (_name, times, verdict, duration) => {
    const once = await readCommittedFixture('speech-mp3');
    const bytes = new Uint8Array(once.length * times);
    for (let i = 0; i < times; i++) bytes.set(once, i * once.length);
    const analysis = await analyze(bytes);
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(verdict);
    if (duration) expect(analysis.durationSeconds).toBeCloseTo(duration, 2);
    else expect(analysis.durationSeconds).toBeGreaterThan(60);
  });

  it('judges an Ogg file whose last granule position understates its audio by the decoded length', async () => {
    const bytes = await damaged('speech-opus-ogg', (bytes) => {
      const last = Buffer.from(bytes).lastIndexOf('OggS', undefined, 'latin1');
      new DataView(bytes.buffer).setBigInt64(last + 6, 4n * 48000n, true); // 4 s, less the 312-sample pre-skip
    });
    const analysis = expectAccepted(await analyze(bytes));
    // The decoder trims the last page to the granule's word (0.6 s); all pages before it count in full.
    expect(analysis.durationSeconds).toBeGreaterThan(6.5);
    expect(analysis.durationSeconds).toBeLessThan(original.durationSeconds);
    expect(analysis.speechSeconds).toBeGreaterThan(5.5);
  });

  it('judges a compressed file cut after 4.5 s by what is left, as a cut WAV is', async () => {
    const whole = await readCommittedFixture('speech-opus-webm');
    const analysis = expectAccepted(await analyze(whole.subarray(0, Math.round(whole.length * 0.6))));
    expect(analysis.durationSeconds).toBeGreaterThan(4);
    expect(analysis.durationSeconds).toBeLessThan(5);
    expect(analysis.decoded).toBe(true);
    expect(analysis.speechSeconds).toBeLessThanOrEqual(analysis.durationSeconds);
  });
});
