/**
 * What planning makes of a request: the timeline the renderer plays, and the prepared request (parse,
 * seed, style) that a counting pass and the plan memo (SynthesisCaches.plans) keep. Types only.
 */

import type { SynthesisRequest, VoiceProfile } from '../types.js';
import type { Phrase } from './plan-phrase.js';
import type { EmotionStyle, LanguageRhythm } from './prosody.js';
import type { Segment } from './segment.js';
import type { ParsedText } from './vocabulary.js';

/** The timeline the renderer plays, plus the few constants it needs. */
export interface UtterancePlan {
  readonly segments: readonly Segment[];
  readonly totalSamples: number;
  readonly sampleRate: number;
  /** Seeds the renderer's noise and jitter. */
  readonly seed: number;
  /** Period-to-period pitch jitter, as a fraction. */
  readonly jitter: number;
  /**
   * Present on a lazy plan (`planLazily`): plans the next phrase into `segments`; false once the plan
   * is complete. `totalSamples` is exact from the start either way.
   */
  readonly more?: () => boolean;
  /** Present on a lazy plan: forgets the segments before `index`, which its one renderer has passed. */
  readonly release?: (index: number) => void;
}

/** A request with its text parsed and its voice, emotion and language worked out, ready to plan. */
export interface PreparedUtterance {
  readonly parsed: ParsedText;
  /** The parse's tokens split at their breaks, once for the counting pass and the plan alike. */
  readonly phrases: readonly Phrase[];
  readonly request: SynthesisRequest;
  readonly sampleRate: number;
  readonly seed: number;
  readonly style: EmotionStyle;
  readonly rhythm: LanguageRhythm;
  readonly tempo: number;
  readonly pitch: number;
}

/** A request's parse and exact size, kept in `SynthesisCaches.plans` for the next identical request. */
export interface PlannedSize {
  readonly voice: VoiceProfile;
  readonly prepared: PreparedUtterance;
  readonly totalSamples: number;
}
