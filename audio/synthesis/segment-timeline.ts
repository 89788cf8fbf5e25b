/**
 * The utterance timeline as it is written: piecewise-linear segments. Each segment moves every synthesis
 * parameter linearly from where the previous one ended to a target, so the renderer never sees a jump in
 * loudness (no clicks) and stays a dumb, fast loop. `at()` is the one primitive; the phone recipes of the
 * segment builder are built on it.
 */

import { type Formants, formantBandwidths, type Noise, vowelFormants } from './phone-sounds.js';
import type { Point, Segment } from './segment.js';

export interface BuilderOptions {
  readonly sampleRate: number;
  /** Multiplies every formant (voice timbre), with the voice's own small per-formant offsets. */
  readonly formantScale: Formants;
  /** Share of aspiration mixed into voiced sound. */
  readonly breathiness: number;
}

/** The samples `at(seconds)` adds: its rounded length, or nothing when that is under one sample. */
export function countedLength(seconds: number, sampleRate: number): number {
  const length = Math.round(seconds * sampleRate);
  return length < 1 ? 0 : length;
}

const silentNoise: Noise = { frequency: 4000, bandwidth: 3000, level: 0 };

/**
 * The pitch movement of the syllable being built: f0 at its start and end, its duration, and the time
 * written of it so far. A class, not an object literal: a literal's hidden class is shared with every
 * other literal of the process that starts with the same keys (`{ start, stop }` of the Node server's
 * body timer did), and when one of those stores another kind of value, V8 throws away the compiled
 * planner that read `start` as a number: a fresh mock's warm-up was undone by its own first request
 * body.
 */
class PitchContour {
  start = 0;
  end = 0;
  duration = 1;
  elapsed = 0;
}

/** Accumulates segments, or in a counting pass only their samples. */
export class SegmentTimeline {
  readonly segments: Segment[] = [];
  totalSamples = 0;
  /** Whispered speech: the pulse train is replaced by aspiration. */
  whisper = false;
  /**
   * Only count samples, keep no segments: a stream learns its exact size from a counting pass, which
   * allocates nothing, and plans the segments phrase by phrase as it renders them.
   */
  countOnly = false;
  protected current: Point;
  protected noise: Noise = silentNoise;
  /** Pitch contour of the syllable being built, moved on by `pitch()`. */
  protected readonly contour = new PitchContour();

  constructor(
    protected readonly options: BuilderOptions,
    f0: number,
  ) {
    this.current = { f0, voice: 0, aspiration: 0, frication: 0, formants: this.scale(vowelFormants.e) };
  }

  scale(formants: Formants): Formants {
    // A counting pass keeps no targets: spare the allocation (~15 per syllable).
    if (this.countOnly) return formants;
    const s = this.options.formantScale;
    return [formants[0] * s[0], formants[1] * s[1], formants[2] * s[2]];
  }

  /** Moves linearly to `target` over `seconds`; f0 follows the current syllable's contour. */
  at(seconds: number, target: Partial<Point>): void {
    const length = Math.round(seconds * this.options.sampleRate);
    if (length < 1) return;
    const c = this.contour;
    c.elapsed += seconds;
    if (this.countOnly) {
      this.totalSamples += length;
      return;
    }
    const f0 = target.f0 ?? c.start + (c.end - c.start) * Math.min(1, c.elapsed / c.duration);
    let voice = target.voice ?? this.current.voice;
    let aspiration = target.aspiration ?? 0;
    if (this.whisper) {
      aspiration = Math.max(aspiration, voice * 0.5);
      voice = 0;
    } else {
      aspiration += voice * this.options.breathiness;
    }
    const to: Point = {
      f0,
      voice,
      aspiration,
      frication: target.frication ?? 0,
      formants: target.formants ?? this.current.formants,
    };
    this.segments.push({ length, from: this.current, to, noise: this.noise, bandwidths: formantBandwidths });
    this.totalSamples += length;
    this.current = to;
  }

  /** Starts a syllable-long pitch movement from `start` to `end` Hz over `duration` seconds. */
  pitch(start: number, end: number, duration: number): void {
    const c = this.contour;
    c.start = start;
    c.end = end;
    c.duration = Math.max(duration, 1e-3);
    c.elapsed = 0;
  }

  /** Silence: everything fades within 25 ms, then holds at zero. */
  gap(seconds: number): void {
    const fade = Math.min(0.025, seconds);
    if (this.countOnly) {
      // The samples of the two `at()` below, with no target made: a counting pass makes ~430 gaps
      // for a 2,000-character text.
      const rate = this.options.sampleRate;
      this.totalSamples += countedLength(fade, rate) + countedLength(seconds - fade, rate);
      return;
    }
    this.at(fade, { voice: 0 });
    this.at(seconds - fade, { voice: 0 });
  }

  protected scaleNoise(noise: Noise): Noise {
    if (this.countOnly) return noise;
    const s = Math.sqrt(this.options.formantScale[1]);
    return { ...noise, frequency: noise.frequency * s, bandwidth: noise.bandwidth * s };
  }
}
