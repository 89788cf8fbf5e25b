/**
 * Seeded randomness for the synthesizer. Everything here is integer arithmetic, so the same seed gives
 * the same sequence on every machine and every V8 version (Math.random() is never used).
 */

/**
 * A 32-bit FNV-1a hash of a string's UTF-16 code units, as an unsigned integer.
 *
 * @example
 * hashString('hello') === hashString('hello'); // stable across runs and machines
 */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `hashString` of a one-code-unit string, from its code unit: the tokenizer hashes every CJK character. */
export function hashCodeUnit(code: number): number {
  return Math.imul(0x811c9dc5 ^ code, 0x01000193) >>> 0;
}

/**
 * Mixes several 32-bit values into one seed (murmur3 finaliser after each step), so that nearby inputs
 * give unrelated seeds.
 *
 * @example
 * const seed = mixSeeds(voice.seed, hashString(text));
 */
export function mixSeeds(...values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A seeded pseudo-random source: `next()` is uniform in [0, 1), `range(a, b)` uniform in [a, b). */
export interface Rng {
  next(): number;
  range(min: number, max: number): number;
  /** An integer in [0, n). */
  int(n: number): number;
}

/**
 * The mulberry32 generator, a class: its methods are one function for every generator, so V8 inlines
 * them where the planner draws. A generator of closures (as this once was) gave each request's plan
 * new functions to call: a new 2,000-character text's count took ~3 µs longer (of ~75, in process).
 */
class Mulberry32 implements Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    const state = (this.state + 0x6d2b79f5) | 0;
    this.state = state;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/**
 * A mulberry32 generator: small, fast, and good enough for prosody jitter.
 *
 * @example
 * const rng = createRng(42);
 * rng.range(0.9, 1.1); // the same number every time for seed 42
 */
export function createRng(seed: number): Rng {
  return new Mulberry32(seed);
}
