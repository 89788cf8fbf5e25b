/**
 * Acoustic targets of the pseudo-phones: vowel formants and how each consonant class sounds. Values are
 * rough averages of adult speech (formants in Hz at formant scale 1, durations in seconds at 4.5
 * syllables per second).
 */

import type { Phone, Vowel } from './vocabulary.js';

export type Formants = readonly [number, number, number];

export const vowelFormants: Readonly<Record<Vowel, Formants>> = {
  a: [760, 1250, 2600],
  e: [500, 1850, 2600],
  i: [310, 2250, 3000],
  o: [530, 920, 2500],
  u: [340, 860, 2350],
};

/** Bandwidths of F1..F3 in Hz. */
export const formantBandwidths: Formants = [80, 110, 160];

/** Formants of the voice bar heard during a voiced closure (b, d, g). */
export const voiceBarFormants: Formants = [220, 1000, 2300];

export type PhoneSound =
  | { readonly kind: 'plosive'; readonly voiced: boolean; readonly noise: Noise; readonly duration: number }
  | { readonly kind: 'affricate'; readonly noise: Noise; readonly duration: number }
  | { readonly kind: 'fricative'; readonly voiced: boolean; readonly noise: Noise; readonly duration: number }
  | { readonly kind: 'aspirate'; readonly level: number; readonly duration: number }
  | {
      readonly kind: 'sonorant';
      readonly formants: Formants;
      readonly level: number;
      readonly duration: number;
    };

/** A band of noise: centre frequency, bandwidth (Hz) and level. */
export interface Noise {
  readonly frequency: number;
  readonly bandwidth: number;
  readonly level: number;
}

export const phoneSounds: Readonly<Record<Phone, PhoneSound>> = {
  p: {
    kind: 'plosive',
    voiced: false,
    noise: { frequency: 900, bandwidth: 1600, level: 0.35 },
    duration: 0.075,
  },
  t: {
    kind: 'plosive',
    voiced: false,
    noise: { frequency: 4200, bandwidth: 2600, level: 0.5 },
    duration: 0.075,
  },
  k: {
    kind: 'plosive',
    voiced: false,
    noise: { frequency: 2100, bandwidth: 1300, level: 0.5 },
    duration: 0.08,
  },
  b: {
    kind: 'plosive',
    voiced: true,
    noise: { frequency: 900, bandwidth: 1600, level: 0.25 },
    duration: 0.06,
  },
  d: {
    kind: 'plosive',
    voiced: true,
    noise: { frequency: 4000, bandwidth: 2600, level: 0.3 },
    duration: 0.06,
  },
  g: {
    kind: 'plosive',
    voiced: true,
    noise: { frequency: 2000, bandwidth: 1300, level: 0.3 },
    duration: 0.065,
  },
  ch: { kind: 'affricate', noise: { frequency: 3000, bandwidth: 1600, level: 0.5 }, duration: 0.095 },
  s: {
    kind: 'fricative',
    voiced: false,
    noise: { frequency: 5800, bandwidth: 2400, level: 0.45 },
    duration: 0.09,
  },
  z: {
    kind: 'fricative',
    voiced: true,
    noise: { frequency: 5600, bandwidth: 2400, level: 0.25 },
    duration: 0.075,
  },
  sh: {
    kind: 'fricative',
    voiced: false,
    noise: { frequency: 3000, bandwidth: 1600, level: 0.5 },
    duration: 0.09,
  },
  f: {
    kind: 'fricative',
    voiced: false,
    noise: { frequency: 6500, bandwidth: 5000, level: 0.2 },
    duration: 0.08,
  },
  th: {
    kind: 'fricative',
    voiced: false,
    noise: { frequency: 7000, bandwidth: 5000, level: 0.16 },
    duration: 0.075,
  },
  v: {
    kind: 'fricative',
    voiced: true,
    noise: { frequency: 6000, bandwidth: 5000, level: 0.12 },
    duration: 0.065,
  },
  h: { kind: 'aspirate', level: 0.22, duration: 0.06 },
  m: { kind: 'sonorant', formants: [280, 1100, 2400], level: 0.42, duration: 0.065 },
  n: { kind: 'sonorant', formants: [280, 1650, 2600], level: 0.42, duration: 0.06 },
  l: { kind: 'sonorant', formants: [380, 1200, 2700], level: 0.55, duration: 0.055 },
  r: { kind: 'sonorant', formants: [430, 1300, 1700], level: 0.55, duration: 0.055 },
  w: { kind: 'sonorant', formants: [320, 760, 2300], level: 0.5, duration: 0.05 },
  j: { kind: 'sonorant', formants: [290, 2200, 3000], level: 0.5, duration: 0.05 },
};
