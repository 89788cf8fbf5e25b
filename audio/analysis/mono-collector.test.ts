import { describe, expect, it } from 'vitest';
import { MonoCollector } from './mono-collector.js';

const ramp = (length: number, from = 0) => Float32Array.from({ length }, (_, i) => (from + i) / 1000);

describe('MonoCollector', () => {
  it('box-averages every step of frames, whatever the chunk boundaries', () => {
    const whole = new MonoCollector(4000);
    whole.add({ channelData: [ramp(4800)], samplesDecoded: 4800, sampleRate: 48000 });
    const chunked = new MonoCollector(4000);
    for (const [from, length] of [
      [0, 7],
      [7, 1000],
      [1007, 5],
      [1012, 3788],
    ] as const) {
      chunked.add({ channelData: [ramp(length, from)], samplesDecoded: length, sampleRate: 48000 });
    }
    const a = whole.finish();
    const b = chunked.finish();
    expect(a).toMatchObject({ sampleRate: 4000, sourceRate: 48000, seconds: 0.1 });
    expect(a.samples.length).toBe(400);
    expect(a.samples[0]).toBeCloseTo(5.5 / 1000, 6); // mean of 0..11
    expect(Array.from(b.samples)).toEqual(Array.from(a.samples));
  });

  it('mixes channels down to their mean', () => {
    const mono = new MonoCollector(22050);
    mono.add({
      channelData: [new Float32Array([1, 1, 1]), new Float32Array([0, -1, 0.5])],
      samplesDecoded: 3,
      sampleRate: 22050,
    });
    expect(Array.from(mono.finish().samples)).toEqual([0.5, 0, 0.75]);
  });

  it.each([
    [48000, 12, 4000],
    [44100, 11, 44100 / 11],
    [22050, 5, 4410],
    [16000, 4, 4000],
    [8000, 2, 4000],
  ])('at %i Hz averages %i frames into one sample (%f Hz)', (sampleRate, step, rate) => {
    const mono = new MonoCollector(4000);
    mono.add({ channelData: [new Float32Array(step * 10)], samplesDecoded: step * 10, sampleRate });
    expect(mono.finish()).toMatchObject({ sampleRate: rate, sourceRate: sampleRate });
  });

  it('refuses a chunk at another sample rate, and drops a last partial step', () => {
    const mono = new MonoCollector(4000);
    expect(mono.add({ channelData: [ramp(30)], samplesDecoded: 30, sampleRate: 48000 })).toBe(true);
    expect(mono.add({ channelData: [ramp(30)], samplesDecoded: 30, sampleRate: 44100 })).toBe(false);
    expect(mono.seconds).toBeCloseTo(30 / 48000, 9);
    expect(mono.finish().samples.length).toBe(2);
  });

  it('grows past its block size', () => {
    const mono = new MonoCollector(48000);
    const length = 40_000;
    mono.add({ channelData: [ramp(length)], samplesDecoded: length, sampleRate: 48000 });
    const { samples } = mono.finish();
    expect(samples.length).toBe(length);
    expect(samples[length - 1]).toBeCloseTo((length - 1) / 1000, 3);
  });

  it('finishes empty when nothing was decoded', () => {
    expect(new MonoCollector(4000).finish()).toMatchObject({ seconds: 0, sampleRate: 4000 });
  });
});
