/** The pitch range searched, Hz: low male speech to high child speech. */
export const pitchRange = { minHz: 60, maxHz: 400 } as const;

/** How periodic a stretch of signal is, and at what period. */
export interface Periodicity {
  /** Normalised correlation at the best period: about 0.9 for voiced speech, mostly under 0.4 for noise. */
  readonly strength: number;
  /** Fundamental frequency, Hz (meaningful when `strength` is high). */
  readonly pitchHz: number;
}

/**
 * First-order high-pass near 60 Hz: removes DC offsets and hum, and tilts pink noise towards white so that
 * its slow wander does not look periodic to the correlation.
 *
 * @example
 * const conditioned = highPass(signal, 4000);
 */
export function highPass(x: Float32Array, sampleRate: number): Float32Array {
  const a = Math.exp((-2 * Math.PI * 60) / sampleRate);
  const y = new Float32Array(x.length);
  let previousX = 0;
  let previousY = 0;
  for (let i = 0; i < x.length; i++) {
    const value = x[i] as number;
    previousY = a * (previousY + value - previousX);
    previousX = value;
    y[i] = previousY;
  }
  return y;
}

/** A signal with the running sum of its squares, so that window energies cost two lookups. */
export interface Prepared {
  readonly x: Float32Array;
  readonly energy: Float64Array;
}

/**
 * Prepares a signal for {@link framePeriodicity}.
 *
 * @example
 * const full = prepare(signal);
 */
export function prepare(x: Float32Array): Prepared {
  const energy = new Float64Array(x.length + 1);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    sum += (x[i] as number) * (x[i] as number);
    energy[i + 1] = sum;
  }
  return { x, energy };
}

/** Normalised cross-correlation of `x[start..start+n)` with itself `lag` samples later. */
function correlation(signal: Prepared, start: number, n: number, lag: number): number {
  const { x, energy } = signal;
  if (start + n + lag > x.length) return 0;
  // Four accumulators: a single running sum is bound by the latency of each addition.
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  let i = start;
  const end = start + n;
  for (const end4 = end - 3; i < end4; i += 4) {
    c0 += (x[i] as number) * (x[i + lag] as number);
    c1 += (x[i + 1] as number) * (x[i + 1 + lag] as number);
    c2 += (x[i + 2] as number) * (x[i + 2 + lag] as number);
    c3 += (x[i + 3] as number) * (x[i + 3 + lag] as number);
  }
  for (; i < end; i++) c0 += (x[i] as number) * (x[i + lag] as number);
  const cross = c0 + c1 + c2 + c3;
  const energyA = (energy[start + n] as number) - (energy[start] as number);
  const energyB = (energy[start + n + lag] as number) - (energy[start + lag] as number);
  const norm = Math.sqrt(energyA * energyB);
  return norm > 0 ? cross / norm : 0;
}

/**
 * Halves the sample rate by averaging pairs: the coarse period search runs on this, a quarter of the work.
 *
 * @example
 * const half = halveRate(signal); // half.length === Math.floor(signal.length / 2)
 */
export function halveRate(x: Float32Array): Float32Array {
  const out = new Float32Array(x.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = ((x[2 * i] as number) + (x[2 * i + 1] as number)) * 0.5;
  return out;
}

/**
 * Periodicity of one frame, YIN-like but on normalised correlation: a coarse search over the pitch range on
 * the half-rate signal, then a fine search around twice the coarse lag at the full rate, then a parabola
 * through the three best points for a sub-sample period.
 *
 * @example
 * const full = prepare(signal);
 * const half = prepare(halveRate(signal));
 * const { strength, pitchHz } = framePeriodicity(full, half, 8000, 1600, 160, previousPitchHz);
 */
export function framePeriodicity(
  full: Prepared,
  half: Prepared,
  sampleRate: number,
  start: number,
  length: number,
  previousHz = 0,
): Periodicity {
  const halfRate = sampleRate / 2;
  const minLag = Math.max(2, Math.floor(halfRate / pitchRange.maxHz));
  const maxLag = Math.ceil(halfRate / pitchRange.minHz);
  const halfStart = start >> 1;
  const halfLength = length >> 1;
  if (halfStart + halfLength + maxLag + 1 > half.x.length) return { strength: 0, pitchHz: 0 };
  if (previousHz > 0) {
    // Pitch moves little from one frame to the next: search near the previous period first, which is a
    // third of the work, and fall back to the whole range when that finds nothing periodic.
    const low = Math.max(minLag, Math.floor(halfRate / previousHz / 1.25));
    const high = Math.min(maxLag, Math.ceil((halfRate / previousHz) * 1.25));
    const near = coarseSearch(half, halfStart, halfLength, low, high);
    if (near > 0) {
      const found = refine(full, sampleRate, start, length, 2 * near);
      if (found.strength >= trackingStrength) return found;
    }
  }
  const coarse = coarseSearch(half, halfStart, halfLength, minLag, maxLag);
  return coarse === 0 ? { strength: 0, pitchHz: 0 } : refine(full, sampleRate, start, length, 2 * coarse);
}

/** Below this, a period found near the previous one is not trusted and the whole range is searched. */
const trackingStrength = 0.7;

/**
 * The coarse period in half-rate samples: the shortest lag that is a local peak within 10 % of the best
 * (multiples of the period score as high), or 0 when nothing correlates.
 */
function coarseSearch(half: Prepared, start: number, length: number, minLag: number, maxLag: number): number {
  // Scores run one lag beyond each end so that a peak at either end can be recognised as one.
  const scores = scratch(maxLag + 2);
  let best = 0;
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
    const r = correlation(half, start, length, lag);
    scores[lag] = r;
    if (r > best) best = r;
  }
  if (best <= 0) return 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    const r = scores[lag] as number;
    if (r >= 0.9 * best && r >= (scores[lag - 1] as number) && r >= (scores[lag + 1] as number)) return lag;
  }
  return 0;
}

/** Searches ±3 samples around `around` at the full rate, then fits a parabola through the best three. */
function refine(
  full: Prepared,
  sampleRate: number,
  start: number,
  length: number,
  around: number,
): Periodicity {
  let fineLag = 0;
  let fineBest = -1;
  let before = 0;
  let after = 0;
  let previous = correlation(full, start, length, around - 4);
  let current = correlation(full, start, length, around - 3);
  for (let lag = around - 3; lag <= around + 3; lag++) {
    const next = correlation(full, start, length, lag + 1);
    if (current > fineBest) {
      fineBest = current;
      fineLag = lag;
      before = previous;
      after = next;
    }
    previous = current;
    current = next;
  }
  const curvature = before - 2 * fineBest + after;
  const shift = curvature < 0 ? (0.5 * (before - after)) / curvature : 0;
  return { strength: fineBest, pitchHz: sampleRate / (fineLag + Math.max(-0.5, Math.min(0.5, shift))) };
}

let scratchBuffer = new Float32Array(64);
/** One reusable buffer for the coarse scores: a frame's search allocates nothing. */
function scratch(size: number): Float32Array {
  if (scratchBuffer.length < size) scratchBuffer = new Float32Array(size);
  return scratchBuffer;
}

/**
 * Median of the given values; null when there are none.
 *
 * @example
 * median([120, 118, 240]); // 120
 */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
