/**
 * Renders a planned utterance to 16-bit samples, in order, a range at a time: a glottal pulse train and
 * aspiration noise through three parallel formant resonators, plus a band of frication noise.
 *
 * Why incremental: every parameter advances by a fixed step per sample and the filter state carries
 * across calls, so rendering in chunks of any size gives exactly the same samples as rendering at once.
 */

import type { Point, Segment } from './synthesize-builder.js';
import { detCos, resonator } from './synthesize-math.js';
import type { UtterancePlan } from './synthesize-plan.js';

const TABLE_SIZE = 1024;
/** Rosenberg glottal-flow derivative, one period, peak magnitude 1 (the closing edge), with a guard point. */
const glottalTable = buildGlottalTable();

function buildGlottalTable(): Float64Array {
  const table = new Float64Array(TABLE_SIZE + 1);
  const open = 0.4;
  const close = 0.16;
  const sin = (x: number): number => detCos(x - Math.PI / 2);
  let peak = 0;
  for (let i = 0; i < TABLE_SIZE; i++) {
    const t = i / TABLE_SIZE;
    let v = 0;
    if (t < open) v = ((0.5 * Math.PI) / open) * sin((Math.PI * t) / open);
    else if (t < open + close) v = -(Math.PI / (2 * close)) * sin((Math.PI * (t - open)) / (2 * close));
    table[i] = v;
    peak = Math.max(peak, Math.abs(v));
  }
  for (let i = 0; i < TABLE_SIZE; i++) table[i] = (table[i] ?? 0) / peak;
  table[TABLE_SIZE] = table[0] ?? 0;
  return table;
}

const isSilent = (p: Point): boolean => p.voice === 0 && p.aspiration === 0 && p.frication === 0;

/** Output gain and formant weights, tuned by ear and by level (peaks near -3 dBFS). */
const MASTER_GAIN = 2;
const W1 = 1;
const W2 = 0.7;
const W3 = 0.45;
const W_FRICATION = 0.6;
const KNEE = 0.75;
const ANTI_DENORMAL = 1e-15;
/** 2^-31: maps a signed 32-bit integer to [-1, 1). */
const INT_TO_UNIT = 4.656612873077393e-10;

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
  private noiseState: number;
  private phase = 0;
  private jit = 1;
  // Filter memories: three formants and the frication band.
  private y1a = 0;
  private y1b = 0;
  private y2a = 0;
  private y2b = 0;
  private y3a = 0;
  private y3b = 0;
  private zA = 0;
  private zB = 0;
  /** Parameters now, then their per-sample steps, in a fixed order (see `enter`). */
  private readonly value = new Float64Array(11);
  private readonly step = new Float64Array(11);
  private readonly fixed = new Float64Array(6);

  /** True while the current segment is silence from end to end. */
  private silent = false;
  /** How long filters ring after sound stops before they are below one LSB: 60 ms. */
  private readonly ringSamples: number;

  constructor(private readonly plan: UtterancePlan) {
    this.noiseState = plan.seed | 0 || 0x2545f491;
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
        this.y1a = this.y1b = this.y2a = this.y2b = this.y3a = this.y3b = this.zA = this.zB = 0;
        out.fill(0, at, at + n);
      } else {
        if (this.silent) n = Math.min(n, this.ringSamples - this.position);
        this.run(out, at, n);
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
    const { from, to, bandwidths } = seg;
    this.silent = isSilent(from) && isSilent(to);
    const r1a = resonator(from.formants[0], bandwidths[0], rate);
    const r1b = resonator(to.formants[0], bandwidths[0], rate);
    const r2a = resonator(from.formants[1], bandwidths[1], rate);
    const r2b = resonator(to.formants[1], bandwidths[1], rate);
    const r3a = resonator(from.formants[2], bandwidths[2], rate);
    const r3b = resonator(to.formants[2], bandwidths[2], rate);
    const start = [
      from.f0 / rate,
      from.voice,
      from.aspiration,
      from.frication,
      r1a.a,
      r1a.b,
      r2a.a,
      r2a.b,
      r3a.a,
      r3a.b,
      0,
    ];
    const end = [
      to.f0 / rate,
      to.voice,
      to.aspiration,
      to.frication,
      r1b.a,
      r1b.b,
      r2b.a,
      r2b.b,
      r3b.a,
      r3b.b,
      0,
    ];
    for (let i = 0; i < start.length; i++) {
      const s = start[i] ?? 0;
      this.value[i] = s;
      this.step[i] = ((end[i] ?? 0) - s) / seg.length;
    }
    const fric = resonator(seg.noise.frequency, seg.noise.bandwidth, rate);
    this.fixed.set([r1a.c, r2a.c, r3a.c, fric.a, fric.b, fric.c]);
  }

  private run(out: Int16Array, offset: number, n: number): void {
    const v = this.value;
    const d = this.step;
    const f = this.fixed;
    let inc = v[0] ?? 0;
    let voice = v[1] ?? 0;
    let asp = v[2] ?? 0;
    let fric = v[3] ?? 0;
    let a1 = v[4] ?? 0;
    let b1 = v[5] ?? 0;
    let a2 = v[6] ?? 0;
    let b2 = v[7] ?? 0;
    let a3 = v[8] ?? 0;
    let b3 = v[9] ?? 0;
    const dInc = d[0] ?? 0;
    const dVoice = d[1] ?? 0;
    const dAsp = d[2] ?? 0;
    const dFric = d[3] ?? 0;
    const da1 = d[4] ?? 0;
    const db1 = d[5] ?? 0;
    const da2 = d[6] ?? 0;
    const db2 = d[7] ?? 0;
    const da3 = d[8] ?? 0;
    const db3 = d[9] ?? 0;
    const c1 = f[0] ?? 0;
    const c2 = f[1] ?? 0;
    const c3 = f[2] ?? 0;
    const fa = f[3] ?? 0;
    const fb = f[4] ?? 0;
    const fc = f[5] ?? 0;
    const jitter = this.plan.jitter;
    const table = glottalTable;
    let { phase, jit, noiseState: ns, y1a, y1b, y2a, y2b, y3a, y3b, zA, zB } = this;
    for (let i = 0; i < n; i++) {
      ns ^= ns << 13;
      ns ^= ns >>> 17;
      ns ^= ns << 5;
      const noise = ns * INT_TO_UNIT;
      phase += inc * jit;
      if (phase >= 1) {
        phase -= 1;
        jit = 1 + jitter * noise;
      }
      const p = phase * TABLE_SIZE;
      const k = p | 0;
      const g0 = table[k] as number;
      const pulse = g0 + ((table[k + 1] as number) - g0) * (p - k);
      // The tiny offset keeps decaying filter memories out of the subnormal range, which is ~100× slower.
      const src = pulse * voice + noise * asp + ANTI_DENORMAL;
      const y1 = a1 * src + b1 * y1a + c1 * y1b;
      y1b = y1a;
      y1a = y1;
      const y2 = a2 * src + b2 * y2a + c2 * y2b;
      y2b = y2a;
      y2a = y2;
      const y3 = a3 * src + b3 * y3a + c3 * y3b;
      y3b = y3a;
      y3a = y3;
      const z = fa * (noise * fric + ANTI_DENORMAL) + fb * zA + fc * zB;
      zB = zA;
      zA = z;
      let s = (W1 * y1 - W2 * y2 + W3 * y3 + W_FRICATION * z) * MASTER_GAIN;
      // Soft knee instead of hard clipping: loud vowels saturate smoothly.
      if (s > KNEE) s = KNEE + ((1 - KNEE) * (s - KNEE)) / (1 - KNEE + (s - KNEE));
      else if (s < -KNEE) s = -KNEE - ((1 - KNEE) * (-s - KNEE)) / (1 - KNEE + (-s - KNEE));
      // floor(x + 0.5) with an integer truncation: the value is positive after the offset.
      out[offset + i] = ((s * 32767 + 32768.5) | 0) - 32768;
      inc += dInc;
      voice += dVoice;
      asp += dAsp;
      fric += dFric;
      a1 += da1;
      b1 += db1;
      a2 += da2;
      b2 += db2;
      a3 += da3;
      b3 += db3;
    }
    v.set([inc, voice, asp, fric, a1, b1, a2, b2, a3, b3, 0]);
    Object.assign(this, { phase, jit, noiseState: ns, y1a, y1b, y2a, y2b, y3a, y3b, zA, zB });
  }
}
