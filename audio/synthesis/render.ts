/**
 * Renders a planned utterance to 16-bit samples, in order, a range at a time: a glottal pulse train and
 * aspiration noise through three parallel formant resonators, plus a band of frication noise.
 *
 * Why incremental: every parameter advances by a fixed step per sample and the filter state carries
 * across calls, so rendering in chunks of any size gives exactly the same samples as rendering at once.
 */

import { resonatorInto } from './deterministic-math.js';
import type { Point, Segment } from './segment.js';
import { SourceFilter } from './source-filter.js';
import type { UtterancePlan } from './utterance.js';

const isSilent = (p: Point): boolean => p.voice === 0 && p.aspiration === 0 && p.frication === 0;
/**
 * Sequential renderer of one plan. Create a new one to start over.
 *
 * @example
 * const renderer = new Renderer(plan);
 * const chunk = new Int16Array(2400);
 * renderer.render(chunk, 0, chunk.length); // the first 100 ms at 24 kHz
 */
export class Renderer {
  private segment = 0;
  private position = 0;
  /** The source and filters, whose parameters `enter` sets for each segment. */
  private readonly voice: SourceFilter;

  /**
   * Resonator coefficients (a, b, c) of the current segment: its start's three formants, its end's
   * three, then the frication band; and what the last ones were designed from (see `enter`).
   */
  private readonly coefficients = new Float64Array(21);
  private lastTo: Point | undefined;
  private lastBandwidths: Segment['bandwidths'] | undefined;
  private lastNoise: Segment['noise'] | undefined;

  /** True while the current segment is silence from end to end. */
  private silent = false;
  /** How long filters ring after sound stops before they are below one LSB: 60 ms. */
  private readonly ringSamples: number;

  constructor(private readonly plan: UtterancePlan) {
    this.voice = new SourceFilter(plan.seed);
    this.ringSamples = Math.round(plan.sampleRate * 0.06);
  }

  /** Renders the next `count` samples into `out` from `offset`; past the end, writes silence. */
  render(out: Int16Array, offset: number, count: number): void {
    let at = offset;
    let left = count;
    while (left > 0) {
      let seg = this.plan.segments[this.segment];
      while (!seg && this.plan.more?.()) seg = this.plan.segments[this.segment];
      if (!seg) {
        out.fill(0, at, at + left);
        return;
      }
      if (this.position === 0) this.enter(seg);
      let n = Math.min(left, seg.length - this.position);
      if (this.silent && this.position >= this.ringSamples) {
        // Deep inside a silence the filters have rung out: write zeros instead of filtering zeros.
        this.voice.memory.fill(0, 2);
        out.fill(0, at, at + n);
      } else {
        if (this.silent) n = Math.min(n, this.ringSamples - this.position);
        this.voice.run(out, at, n, this.plan.jitter);
      }
      at += n;
      left -= n;
      this.position += n;
      if (this.position >= seg.length) {
        this.segment++;
        this.position = 0;
        this.plan.release?.(this.segment);
      }
    }
  }

  private enter(seg: Segment): void {
    const rate = this.plan.sampleRate;
    const { from, to, bandwidths, noise } = seg;
    this.silent = isSilent(from) && isSilent(to);
    const k = this.coefficients;
    // A segment starts where the previous one ended (the builder hands over the same Point), so the
    // resonators of its start are those of the previous end: half the filter designs per segment.
    if (from === this.lastTo && bandwidths === this.lastBandwidths) {
      k.copyWithin(0, 9, 18);
    } else {
      resonatorInto(k, 0, from.formants[0], bandwidths[0], rate);
      resonatorInto(k, 3, from.formants[1], bandwidths[1], rate);
      resonatorInto(k, 6, from.formants[2], bandwidths[2], rate);
    }
    resonatorInto(k, 9, to.formants[0], bandwidths[0], rate);
    resonatorInto(k, 12, to.formants[1], bandwidths[1], rate);
    resonatorInto(k, 15, to.formants[2], bandwidths[2], rate);
    // The frication band stays the same object across the segments of a sound.
    if (noise !== this.lastNoise) resonatorInto(k, 18, noise.frequency, noise.bandwidth, rate);
    this.lastTo = to;
    this.lastBandwidths = bandwidths;
    this.lastNoise = noise;
    const length = seg.length;
    this.ramp(0, from.f0 / rate, to.f0 / rate, length);
    this.ramp(1, from.voice, to.voice, length);
    this.ramp(2, from.aspiration, to.aspiration, length);
    this.ramp(3, from.frication, to.frication, length);
    for (let f = 0; f < 3; f++) {
      this.ramp(4 + 2 * f, k[3 * f] as number, k[9 + 3 * f] as number, length);
      this.ramp(5 + 2 * f, k[3 * f + 1] as number, k[9 + 3 * f + 1] as number, length);
    }
    this.ramp(10, 0, 0, length);
    const fixed = this.voice.fixed;
    fixed[0] = k[2] as number;
    fixed[1] = k[5] as number;
    fixed[2] = k[8] as number;
    fixed[3] = k[18] as number;
    fixed[4] = k[19] as number;
    fixed[5] = k[20] as number;
  }

  /** Parameter `i` starts at `start` and moves to `end` over `length` samples. */
  private ramp(i: number, start: number, end: number, length: number): void {
    this.voice.value[i] = start;
    this.voice.step[i] = (end - start) / length;
  }
}
