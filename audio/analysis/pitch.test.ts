import { describe, expect, it } from 'vitest';
import { noise, tone } from '../test/signals.js';
import { framePeriodicity, halveRate, highPass, median, prepare } from './pitch.js';

const rate = 4000;
const measure = (signal: Float32Array, start = 400) =>
  framePeriodicity(prepare(signal), prepare(halveRate(signal)), rate, start, 80);

describe('framePeriodicity', () => {
  it.each([65, 90, 120, 180, 250, 330, 390])('finds %i Hz in a harmonic tone within 3 %%', (hz) => {
    const { strength, pitchHz } = measure(tone(0.5, rate, hz, 0.5, 5));
    expect(strength).toBeGreaterThan(0.8);
    expect(Math.abs(pitchHz / hz - 1)).toBeLessThan(0.03);
  });

  it.each([
    ['white', 1],
    ['white', 2],
    ['pink', 3],
    ['pink', 4],
  ] as const)(
    'scores %s noise (seed %i), high-passed as the detector does, below the voicing threshold (0.65)',
    (color, seed) => {
      const signal = highPass(noise(1, rate, -20, color, seed), rate);
      for (let start = 0; start < 3000; start += 80)
        expect(measure(signal, start).strength).toBeLessThan(0.65);
    },
  );

  it('gives zero near the end of the signal, where the lags do not fit', () => {
    expect(measure(tone(0.1, rate, 100, 0.5), 360).strength).toBe(0);
  });
});

describe('median', () => {
  it.each([
    [[], null],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
  ])('median(%j) = %j', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});
