import { describe, expect, it } from 'vitest';
import { errors, limits, referenceVerdicts } from '../../openapi/contract.js';
import { concat, mix, monoWav, noise, seeded, silence, speechLike, tone, writeWav } from '../test/signals.js';
import type { Analysis, AnalysisAccepted } from '../types.js';
import { analyze, analyzeDefaults } from './analyze.js';

const rate = 8000;
const speech = (seconds: number, seed = 1, sampleRate = rate) => speechLike({ seconds, sampleRate, seed });
const wav = (...parts: Float32Array[]) => monoWav(concat(...parts), rate);

function expectAccepted(analysis: Analysis): AnalysisAccepted {
  if (!analysis.ok) throw new Error(`expected acceptance, got ${analysis.verdict}: ${analysis.reason}`);
  return analysis;
}

describe('analyze: verdicts', () => {
  const randomBytes = (() => {
    const next = seeded(11);
    return Uint8Array.from({ length: 10_000 }, () => Math.floor(next() * 256));
  })();
  const valid = wav(speech(5));
  // MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 26 ms each) with all-zero payloads, which decode to silence.
  const mp3Frames = (count: number) =>
    Array.from({ length: count }, () => [0xff, 0xfb, 0x90, 0x64, ...new Array<number>(413).fill(0)]).flat();
  const flac = new Uint8Array([...'fLaC'].map((c) => c.charCodeAt(0)).concat(new Array(200).fill(0)));

  // The expected verdict joins the title here: a printf `%s` of the bytes would print every byte.
  const titled = (cases: [string, Uint8Array, string][]) =>
    cases.map(([name, bytes, expected]): [string, Uint8Array, string] => [
      `${name} → ${expected}`,
      bytes,
      expected,
    ]);

  it.each(
    titled([
      ['clear speech', valid, 'accepted'],
      ['speech with a 4.5 s pause', wav(speech(3), silence(4.5, rate), speech(3, 2)), 'accepted'],
      [
        'speech between 10 s of leading and trailing silence',
        wav(silence(10, rate), speech(4), silence(10, rate)),
        'accepted',
      ],
      ['speech under low pink noise', monoWav(mix(speech(6), noise(6, rate, -40, 'pink')), rate), 'accepted'],
      [
        '1.2 s of speech in 5 s of silence',
        wav(silence(2, rate), speech(1.2), silence(1.8, rate)),
        'accepted',
      ],
      ['zero bytes', new Uint8Array(0), 'unsupported'],
      ['random bytes', randomBytes, 'unsupported'],
      ['FLAC bytes', flac, 'unsupported'],
      ['a WAV header cut at 30 bytes', valid.subarray(0, 30), 'unsupported'],
      [
        'a RIFF/WAVE header followed by garbage',
        new Uint8Array([...valid.subarray(0, 12), ...randomBytes.subarray(0, 400)]),
        'unsupported',
      ],
      ['MP3 frames of silence for 3.9 s (decoded)', Uint8Array.from(mp3Frames(150)), 'insufficient-speech'],
      ['MP3 frames for 2.6 s', Uint8Array.from(mp3Frames(100)), 'too-short'],
      ['MP3 frames for 60.5 s', Uint8Array.from(mp3Frames(2316)), 'too-long'],
      [
        'two MP3 frames, then random bytes',
        Uint8Array.from([...mp3Frames(2), ...randomBytes]),
        'unsupported',
      ],
      ['70 s of speech', wav(speech(70)), 'too-long'],
      ['70 s of silence (the duration is judged first)', wav(silence(70, rate)), 'too-long'],
      ['2 s of speech', wav(speech(2)), 'too-short'],
      ['2 s of silence', wav(silence(2, rate)), 'too-short'],
      ['a WAV with an empty data chunk', wav(), 'too-short'],
      ['speech, a 6 s pause, speech', wav(speech(3), silence(6, rate), speech(3, 2)), 'pause-too-long'],
      [
        'speech, a 20 s pause, speech (a pause, not too little speech)',
        wav(speech(3), silence(20, rate), speech(3, 2)),
        'pause-too-long',
      ],
      // 0.6 s of speech in all, below the 1 s minimum: the pause is the more specific fault and wins.
      [
        '0.3 s of speech, 8 s of silence, 0.3 s of speech',
        wav(speech(0.3), silence(8, rate), speech(0.3, 2)),
        'pause-too-long',
      ],
      [
        'speech, 8 s of pink noise, speech',
        wav(speech(3), noise(8, rate, -30, 'pink'), speech(3, 2)),
        'pause-too-long',
      ],
      ['silence', wav(silence(10, rate)), 'insufficient-speech'],
      ['near-silence (white noise at -60 dBFS)', wav(noise(10, rate, -60, 'white')), 'insufficient-speech'],
      ['white noise at -20 dBFS', wav(noise(10, rate, -20, 'white')), 'insufficient-speech'],
      ['pink noise at -20 dBFS', wav(noise(10, rate, -20, 'pink')), 'insufficient-speech'],
      ['a steady 440 Hz tone', wav(tone(10, rate, 440, 0.5)), 'insufficient-speech'],
      ['a 50 Hz hum', wav(tone(10, rate, 50, 0.3, 8)), 'insufficient-speech'],
      [
        '0.6 s of speech in 5 s of silence',
        wav(silence(2, rate), speech(0.6), silence(2.4, rate)),
        'insufficient-speech',
      ],
    ]),
  )('%s', async (_title, bytes, expected) => {
    const analysis = await analyze(bytes);
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(expected);
    if (!analysis.ok) {
      expect(errors[referenceVerdicts[analysis.verdict]].code).toBeGreaterThan(0);
      expect(analysis.reason.length).toBeGreaterThan(10);
    }
  });

  it.each([
    ['3.0 s', 3, 'accepted'],
    ['2.99 s', 2.99, 'too-short'],
    ['60.0 s', 60, 'accepted'],
    ['60.01 s', 60.01, 'too-long'],
  ])('is exact at the duration bound %s', async (_name, seconds, expected) => {
    const analysis = await analyze(monoWav(speech(seconds), rate));
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(expected);
    expect(analysis.durationSeconds).toBe(Math.round(seconds * rate) / rate);
  });

  it('accepts exactly 20,971,520 bytes and refuses one byte more as too-large, before reading anything', async () => {
    const max = limits.referenceMaxBytes.value;
    const base = writeWav([speech(5, 1, 16000)], { sampleRate: 16000 });
    const junk = { id: 'JUNK', body: new Uint8Array(max - base.length - 8) };
    const exact = writeWav([speech(5, 1, 16000)], { sampleRate: 16000, chunks: [junk] });
    expect(exact.length).toBe(max);
    expectAccepted(await analyze(exact));
    const over = new Uint8Array(max + 1);
    over.set(exact);
    const refused = await analyze(over);
    expect(refused).toMatchObject({ ok: false, verdict: 'too-large', container: 'wav' });
    const garbage = await analyze(new Uint8Array(max + 1).fill(0x55));
    expect(garbage).toMatchObject({ ok: false, verdict: 'too-large' });
  });

  it.each([
    [
      'maxPauseSeconds: 10 allows a 6 s pause',
      { maxPauseSeconds: 10 },
      wav(speech(3), silence(6, rate), speech(3, 2)),
      'accepted',
    ],
    [
      'maxPauseSeconds: 2 refuses a 3 s pause',
      { maxPauseSeconds: 2 },
      wav(speech(3), silence(3, rate), speech(3, 2)),
      'pause-too-long',
    ],
    [
      'minSpeechSeconds: 0.4 allows 0.6 s of speech',
      { minSpeechSeconds: 0.4 },
      wav(silence(2, rate), speech(0.6), silence(2.4, rate)),
      'accepted',
    ],
    [
      'minSpeechSeconds: 4 refuses 3 s of speech',
      { minSpeechSeconds: 4 },
      wav(speech(3), silence(2, rate)),
      'insufficient-speech',
    ],
  ])('%s', async (_name, options, bytes, expected) => {
    const analysis = await analyze(bytes, options);
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(expected);
  });

  it('documents its defaults', () => {
    expect(analyzeDefaults).toEqual({ maxPauseSeconds: 5, minSpeechSeconds: 1 });
  });

  it('names the file and what the bytes really are, whatever the extension says', async () => {
    const analysis = await analyze(flac, { fileName: 'voice.wav' });
    expect(analysis).toMatchObject({ ok: false, verdict: 'unsupported', container: 'flac' });
    if (!analysis.ok) expect(analysis.reason).toMatch(/"voice\.wav" is a FLAC file/);
  });
});

describe('analyze: WAV formats', () => {
  const seconds = 4;
  it.each([
    ['pcm', 8, 1, 8000, false, 'pcm_u8'],
    ['pcm', 16, 1, 16000, false, 'pcm_s16le'],
    ['pcm', 16, 2, 22050, false, 'pcm_s16le'],
    ['pcm', 24, 1, 44100, false, 'pcm_s24le'],
    ['pcm', 24, 2, 48000, true, 'pcm_s24le'],
    ['pcm', 32, 1, 48000, false, 'pcm_s32le'],
    ['float', 32, 2, 44100, false, 'pcm_f32le'],
    ['float', 32, 1, 24000, true, 'pcm_f32le'],
    ['float', 64, 1, 16000, false, 'pcm_f64le'],
    ['pcm', 16, 1, 96000, false, 'pcm_s16le'],
    ['pcm', 16, 1, 11025, false, 'pcm_s16le'],
  ] as const)(
    '%s %i-bit, %i channel(s), %i Hz (extensible: %s) → %s, with speech and pitch',
    async (encoding, bits, channels, sampleRate, extensible, codec) => {
      const signal = speechLike({ seconds, sampleRate, pitchHz: 150 });
      const bytes = writeWav(new Array<Float32Array>(channels).fill(signal), {
        sampleRate,
        encoding,
        bits,
        extensible,
      });
      const analysis = expectAccepted(await analyze(bytes));
      expect(analysis).toMatchObject({
        container: 'wav',
        codec,
        sampleRate,
        channels,
        decoded: true,
        durationSeconds: seconds,
      });
      expect(analysis.speechSeconds).toBeGreaterThan(3);
      expect(analysis.speechFraction).toBeGreaterThan(0.75);
      expect(analysis.longestPauseSeconds).toBeLessThan(1);
      expect(analysis.pitchHz).toBeGreaterThan(135);
      expect(analysis.pitchHz).toBeLessThan(165);
    },
  );

  it('accepts a WAV streamed with unknown sizes (0xFFFFFFFF), clamping the data to the file', async () => {
    const bytes = writeWav([speech(5)], { sampleRate: rate, riffSize: 0xffffffff, dataSize: 0xffffffff });
    expect(expectAccepted(await analyze(bytes)).durationSeconds).toBe(5);
  });

  it('is deterministic: the same bytes give the same analysis', async () => {
    const bytes = wav(speech(3), silence(1, rate), speech(2, 3));
    expect(await analyze(bytes)).toEqual(await analyze(bytes));
  });
});
