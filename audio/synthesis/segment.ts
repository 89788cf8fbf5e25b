/**
 * The utterance timeline: straight segments along which every synthesis parameter moves linearly. The
 * segment builder writes them and the renderer plays them.
 */

import type { Formants, Noise } from './phone-sounds.js';

/** The synthesis parameters at one instant. */
export interface Point {
  /** Fundamental frequency, Hz. */
  readonly f0: number;
  /** Level of the glottal pulse train. */
  readonly voice: number;
  /** Level of aspiration noise through the formant filters (breath, h, whisper). */
  readonly aspiration: number;
  /** Level of the frication noise band. */
  readonly frication: number;
  readonly formants: Formants;
}

/** One straight stretch of the timeline. */
export interface Segment {
  /** Length in samples (at least 1). */
  readonly length: number;
  readonly from: Point;
  readonly to: Point;
  /** The frication band during this segment. */
  readonly noise: Noise;
  readonly bandwidths: Formants;
}
