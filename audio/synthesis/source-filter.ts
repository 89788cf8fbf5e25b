/**
 * The sample loops of the renderer: a glottal pulse train and aspiration noise (the source) through three
 * parallel formant resonators, plus a band of frication noise (the filters), mixed to 16-bit samples. The
 * renderer sets the parameters and their per-sample steps for each segment; this runs them.
 */

import { detCos } from './deterministic-math.js';

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
 * The source and filters of one renderer, with the state they carry from one call to the next. Create a
 * new one to start over.
 *
 * @example
 * const voice = new SourceFilter(plan.seed);
 * // set voice.value, voice.step and voice.fixed for a segment, then:
 * voice.run(out, 0, 256, plan.jitter);
 */
export class SourceFilter {
  /**
   * Oscillator and filter memories, carried from one call to the next: phase, jitter, then the two
   * memories of each formant and of the frication band (see `run`). In typed arrays rather than fields,
   * where each double stored would be a fresh heap number: this state is written on every call.
   */
  readonly memory = new Float64Array(10);
  readonly noiseState = new Int32Array(1);
  /** Parameters now, then their per-sample steps, in a fixed order (see `Renderer.enter`). */
  readonly value = new Float64Array(11);
  readonly step = new Float64Array(11);
  readonly fixed = new Float64Array(6);

  constructor(seed: number) {
    this.noiseState[0] = seed | 0 || 0x2545f491;
    this.memory[1] = 1; // jitter factor
  }

  /**
   * Renders `n` samples in two passes over a scratch buffer: the sources (glottal pulse, aspiration and
   * frication noise), then the filters and the mix. Each pass keeps its own state in registers, where
   * one loop over everything spilled half of it to memory on every sample; the arithmetic is the same,
   * operation for operation, so the samples are identical.
   */
  run(out: Int16Array, offset: number, n: number, jitter: number): void {
    for (let done = 0; done < n; done += SCRATCH) {
      const count = Math.min(SCRATCH, n - done);
      this.sources(count, jitter);
      this.filters(out, offset + done, count);
    }
  }

  /** The glottal source with aspiration, and the frication noise, of the next `n` samples. */
  private sources(n: number, jitter: number): void {
    const v = this.value;
    const d = this.step;
    let inc = v[0] ?? 0;
    let voice = v[1] ?? 0;
    let asp = v[2] ?? 0;
    let fric = v[3] ?? 0;
    const dInc = d[0] ?? 0;
    const dVoice = d[1] ?? 0;
    const dAsp = d[2] ?? 0;
    const dFric = d[3] ?? 0;
    const table = glottalTable;
    const m = this.memory;
    let phase = m[0] as number;
    let jit = m[1] as number;
    let ns = this.noiseState[0] as number;
    const glottal = sourceScratch;
    const hiss = fricationScratch;
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
      glottal[i] = pulse * voice + noise * asp + ANTI_DENORMAL;
      hiss[i] = noise * fric + ANTI_DENORMAL;
      inc += dInc;
      voice += dVoice;
      asp += dAsp;
      fric += dFric;
    }
    v[0] = inc;
    v[1] = voice;
    v[2] = asp;
    v[3] = fric;
    m[0] = phase;
    m[1] = jit;
    this.noiseState[0] = ns;
  }

  /** The three formants and the frication band over the sources of the next `n` samples, mixed into `out`. */
  private filters(out: Int16Array, offset: number, n: number): void {
    const v = this.value;
    const d = this.step;
    const f = this.fixed;
    let a1 = v[4] ?? 0;
    let b1 = v[5] ?? 0;
    let a2 = v[6] ?? 0;
    let b2 = v[7] ?? 0;
    let a3 = v[8] ?? 0;
    let b3 = v[9] ?? 0;
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
    const m = this.memory;
    let y1a = m[2] as number;
    let y1b = m[3] as number;
    let y2a = m[4] as number;
    let y2b = m[5] as number;
    let y3a = m[6] as number;
    let y3b = m[7] as number;
    let zA = m[8] as number;
    let zB = m[9] as number;
    const glottal = sourceScratch;
    const hiss = fricationScratch;
    for (let i = 0; i < n; i++) {
      const src = glottal[i] as number;
      const y1 = a1 * src + b1 * y1a + c1 * y1b;
      y1b = y1a;
      y1a = y1;
      const y2 = a2 * src + b2 * y2a + c2 * y2b;
      y2b = y2a;
      y2a = y2;
      const y3 = a3 * src + b3 * y3a + c3 * y3b;
      y3b = y3a;
      y3a = y3;
      const z = fa * (hiss[i] as number) + fb * zA + fc * zB;
      zB = zA;
      zA = z;
      let s = (W1 * y1 - W2 * y2 + W3 * y3 + W_FRICATION * z) * MASTER_GAIN;
      // Soft knee instead of hard clipping: loud vowels saturate smoothly.
      if (s > KNEE) s = KNEE + ((1 - KNEE) * (s - KNEE)) / (1 - KNEE + (s - KNEE));
      else if (s < -KNEE) s = -KNEE - ((1 - KNEE) * (-s - KNEE)) / (1 - KNEE + (-s - KNEE));
      // floor(x + 0.5) with an integer truncation: the value is positive after the offset.
      out[offset + i] = ((s * 32767 + 32768.5) | 0) - 32768;
      a1 += da1;
      b1 += db1;
      a2 += da2;
      b2 += db2;
      a3 += da3;
      b3 += db3;
    }
    v[4] = a1;
    v[5] = b1;
    v[6] = a2;
    v[7] = b2;
    v[8] = a3;
    v[9] = b3;
    v[10] = 0;
    m[2] = y1a;
    m[3] = y1b;
    m[4] = y2a;
    m[5] = y2b;
    m[6] = y3a;
    m[7] = y3b;
    m[8] = zA;
    m[9] = zB;
  }
}

/** Samples per pass of `run`: small enough for the scratch to stay in the first-level cache. */
const SCRATCH = 256;
// Shared by every renderer: a pass runs to its end without yielding, so no two ever interleave.
const sourceScratch = new Float64Array(SCRATCH);
const fricationScratch = new Float64Array(SCRATCH);
