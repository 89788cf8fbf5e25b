/**
 * Deterministic replacements for Math.cos and Math.exp, and the resonator design built on them.
 *
 * Why: V8 may change the last bit of Math.cos/exp between versions, and the synthesizer promises the
 * same bytes everywhere. These use only +, -, *, / (IEEE 754 exact-rounded), so their results never move.
 */

const PI = Math.PI;
const TWO_PI = 2 * Math.PI;
const LN2 = Math.LN2;

/**
 * cos(x) from a range reduction to [-π/2, π/2] and a Taylor series (error below 1e-12).
 *
 * @example
 * detCos(0) === 1;
 */
export function detCos(x: number): number {
  let r = x - TWO_PI * Math.floor(x / TWO_PI + 0.5); // r in [-π, π]
  let sign = 1;
  if (r > PI / 2) {
    r = PI - r;
    sign = -1;
  } else if (r < -PI / 2) {
    r = -PI - r;
    sign = -1;
  }
  const r2 = r * r;
  let term = 1;
  let sum = 1;
  for (let n = 1; n <= 11; n++) {
    term *= -r2 / ((2 * n - 1) * (2 * n));
    sum += term;
  }
  return sign * sum;
}

/**
 * exp(x) as 2^k · e^r with |r| ≤ ln2/2 and a Taylor series; 2^k is exact.
 *
 * @example
 * detExp(0) === 1;
 */
export function detExp(x: number): number {
  const k = Math.round(x / LN2);
  const r = x - k * LN2;
  let term = 1;
  let sum = 1;
  for (let n = 1; n <= 16; n++) {
    term *= r / n;
    sum += term;
  }
  // 2^k by repeated doubling: exact, and free of any engine's pow().
  let scale = 1;
  for (let i = 0; i < Math.abs(k); i++) scale *= 2;
  return k >= 0 ? sum * scale : sum / scale;
}

/** Coefficients of y[n] = a·x[n] + b·y[n-1] + c·y[n-2], a two-pole resonator with unity gain at its peak. */
export interface Resonator {
  readonly a: number;
  readonly b: number;
  readonly c: number;
}

/**
 * Designs a resonator at `frequency` Hz with `bandwidth` Hz. The gain is normalised to 1 at the pole
 * angle, so swapping vowels does not change loudness much.
 *
 * @example
 * const r = resonator(700, 90, 24000); // the first formant of an /a/
 */
export function resonator(frequency: number, bandwidth: number, sampleRate: number): Resonator {
  const out = new Float64Array(3);
  resonatorInto(out, 0, frequency, bandwidth, sampleRate);
  return { a: out[0] as number, b: out[1] as number, c: out[2] as number };
}

/**
 * The same design written as a, b, c into `out` from `at`: the renderer designs filters for every
 * segment of every stream, and objects there were a fifth of its garbage.
 *
 * @example
 * const coefficients = new Float64Array(3);
 * resonatorInto(coefficients, 0, 700, 90, 24000);
 */
export function resonatorInto(
  out: Float64Array,
  at: number,
  frequency: number,
  bandwidth: number,
  sampleRate: number,
): void {
  const nyquistSafe = Math.min(frequency, sampleRate * 0.45);
  const radius = detExp((-PI * bandwidth) / sampleRate);
  const theta = (TWO_PI * nyquistSafe) / sampleRate;
  const b = 2 * radius * detCos(theta);
  const c = -radius * radius;
  const a = (1 - radius) * Math.sqrt(1 - 2 * radius * detCos(2 * theta) + radius * radius);
  out[at] = a;
  out[at + 1] = b;
  out[at + 2] = c;
}
