import { describe, expect, it } from 'vitest';
import { concat, monoWav, noise, silence, speechLike, tone, writeMp3 } from '../test/signals.js';
import type { Analysis, AnalysisAccepted } from '../types.js';
import { analyze } from './analyze.js';

function expectAccepted(analysis: Analysis): AnalysisAccepted {
  if (!analysis.ok) throw new Error(`expected acceptance, got ${analysis.verdict}: ${analysis.reason}`);
  return analysis;
}

// MP3s made by the LAME port from the same test signals as the WAV tables: the decoded path needs no
// committed file (the committed ones, Opus included, are judged in test/compressed-fixtures.test.ts).
describe('analyze: MP3, decoded like WAV', () => {
  const mp3 = (sampleRate: number, kbps: number, ...parts: Float32Array[]) =>
    writeMp3([concat(...parts)], sampleRate, kbps);
  const speechAt = (seconds: number, sampleRate: number, seed = 1) =>
    speechLike({ seconds, sampleRate, seed, pitchHz: 150 });

  it.each([
    ['speech, 16 kHz, 32 kbit/s', mp3(16000, 32, speechAt(5, 16000)), 'accepted'],
    ['speech, 44.1 kHz, 64 kbit/s', mp3(44100, 64, speechAt(5, 44100)), 'accepted'],
    ['speech, 8 kHz, 16 kbit/s', mp3(8000, 16, speechAt(5, 8000)), 'accepted'],
    ['silence', mp3(16000, 32, silence(10, 16000)), 'insufficient-speech'],
    ['white noise at -20 dBFS', mp3(16000, 32, noise(10, 16000, -20, 'white')), 'insufficient-speech'],
    ['a steady 440 Hz tone', mp3(16000, 32, tone(10, 16000, 440, 0.5)), 'insufficient-speech'],
    [
      'speech, 6 s of silence, speech',
      mp3(16000, 32, speechAt(3, 16000), silence(6, 16000), speechAt(3, 16000, 2)),
      'pause-too-long',
    ],
    [
      'speech, 4.5 s of silence, speech',
      mp3(16000, 32, speechAt(3, 16000), silence(4.5, 16000), speechAt(3, 16000, 2)),
      'accepted',
    ],
  ])('%s → %s', async (_name, bytes, expected) => {
    const analysis = await analyze(bytes);
    expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(expected);
    expect(analysis.container).toBe('mp3');
  });

  it('measures what the WAV of the same signal measures, within the codec’s blur', async () => {
    const signal = speechAt(6, 16000);
    const fromWav = expectAccepted(await analyze(monoWav(signal, 16000)));
    const fromMp3 = expectAccepted(await analyze(writeMp3([signal], 16000, 32)));
    expect(fromMp3).toMatchObject({ container: 'mp3', codec: 'mp3', decoded: true, channels: 1 });
    expect(fromMp3.speechSeconds).toBeCloseTo(fromWav.speechSeconds ?? 0, 0);
    expect(fromMp3.longestPauseSeconds).toBeLessThan(1);
    expect(Math.abs((fromMp3.pitchHz ?? 0) / (fromWav.pitchHz ?? 1) - 1)).toBeLessThan(0.05);
  });

  it('mixes stereo down to mono: speech on one channel only is still speech', async () => {
    const left = speechAt(5, 22050);
    const analysis = expectAccepted(await analyze(writeMp3([left, silence(5, 22050)], 22050, 64)));
    expect(analysis).toMatchObject({ channels: 2, decoded: true });
    expect(analysis.speechSeconds).toBeGreaterThan(3);
  });

  it('applies the options to decoded audio as to WAV', async () => {
    const bytes = mp3(16000, 32, speechAt(3, 16000), silence(6, 16000), speechAt(3, 16000, 2));
    expect((await analyze(bytes, { maxPauseSeconds: 10 })).ok).toBe(true);
  });

  it('is deterministic: the same MP3 gives the same analysis', async () => {
    const bytes = mp3(16000, 32, speechAt(3, 16000), silence(1, 16000), speechAt(2, 16000, 3));
    expect(await analyze(bytes)).toEqual(await analyze(bytes));
  });
});
