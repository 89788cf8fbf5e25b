import { describe, expect, it } from 'vitest';
import { concat, mix, noise, type SpeechLikeOptions, silence, speechLike, tone } from '../test/signals.js';
import { detectSpeech } from './speech-detect.js';

const rate = 8000;
const speech = (seconds: number, seed = 1) => speechLike({ seconds, sampleRate: rate, seed });

describe('detectSpeech', () => {
  it.each([
    ['digital silence', silence(6, rate)],
    ['near-silence: white noise at -60 dBFS', noise(6, rate, -60, 'white')],
    ['white noise at -20 dBFS', noise(6, rate, -20, 'white')],
    ['pink noise at -20 dBFS', noise(6, rate, -20, 'pink')],
    ['pink noise at -10 dBFS', noise(6, rate, -10, 'pink', 3)],
    ['a steady 440 Hz sine', tone(6, rate, 440, 0.5)],
    ['a steady 150 Hz sine, in the voice range', tone(6, rate, 150, 0.5)],
    ['a 50 Hz hum with harmonics', tone(6, rate, 50, 0.4, 8)],
    ['a 120 Hz buzz with harmonics', tone(6, rate, 120, 0.4, 12)],
    ['a tone between silences', concat(silence(2, rate), tone(3, rate, 200, 0.5, 4), silence(2, rate))],
  ])('finds no speech in %s', (_name, signal) => {
    const report = detectSpeech(signal, rate);
    expect(report.speechSeconds).toBe(0);
    expect(report.segments).toEqual([]);
    expect(report.longestPauseSeconds).toBe(0);
    expect(report.pitchHz).toBeNull();
  });

  it.each([
    ['at 140 Hz', { pitchHz: 140 }],
    ['at 85 Hz (low voice)', { pitchHz: 85 }],
    ['at 260 Hz (high voice)', { pitchHz: 260 }],
    ['at 3 syllables/s', { pitchHz: 140, syllablesPerSecond: 3 }],
    ['at 6 syllables/s', { pitchHz: 140, syllablesPerSecond: 6 }],
    ['quiet (peak -30 dBFS)', { pitchHz: 140, level: 0.03 }],
  ] as Array<[string, Partial<SpeechLikeOptions> & { pitchHz: number }]>)(
    'finds speech-like signal %s, with its pitch',
    (_name, options) => {
      const report = detectSpeech(speechLike({ seconds: 6, sampleRate: rate, ...options }), rate);
      expect(report.speechSeconds).toBeGreaterThan(4.5);
      expect(report.speechFraction).toBeGreaterThan(0.75);
      expect(report.longestPauseSeconds).toBeLessThan(1);
      const pitch = options.pitchHz;
      expect(report.pitchHz).toBeGreaterThan(pitch * 0.9);
      expect(report.pitchHz).toBeLessThan(pitch * 1.1);
    },
  );

  it.each([
    ['pink noise at -40 dBFS', noise(6, rate, -40, 'pink')],
    ['white noise at -45 dBFS', noise(6, rate, -45, 'white')],
    ['a 50 Hz hum at -26 dBFS', tone(6, rate, 50, 0.05, 6)],
  ])('finds speech under %s', (_name, background) => {
    expect(detectSpeech(mix(speech(6), background), rate).speechSeconds).toBeGreaterThan(4.5);
  });

  it.each([2, 4.5, 8, 20])('measures a %f s pause between two stretches of speech', (pause) => {
    const report = detectSpeech(concat(speech(3), silence(pause, rate), speech(3, 2)), rate);
    expect(report.segments.length).toBeGreaterThanOrEqual(2);
    expect(report.longestPauseSeconds).toBeGreaterThan(pause - 0.1);
    expect(report.longestPauseSeconds).toBeLessThan(pause + 0.6);
  });

  it('counts noise between speech as pause', () => {
    const report = detectSpeech(concat(speech(3), noise(7, rate, -30, 'pink'), speech(3, 2)), rate);
    expect(report.longestPauseSeconds).toBeGreaterThan(6.9);
  });

  it('does not count leading or trailing silence as a pause', () => {
    const report = detectSpeech(concat(silence(10, rate), speech(4), silence(10, rate)), rate);
    expect(report.longestPauseSeconds).toBeLessThan(1);
    expect(report.segments[0]?.startSeconds).toBeGreaterThan(9.9);
    expect(report.speechFraction).toBeLessThan(0.2);
  });

  it('is deterministic', () => {
    const signal = concat(speech(3), silence(2, rate), speech(2, 5));
    expect(detectSpeech(signal, rate)).toEqual(detectSpeech(signal, rate));
  });
});
