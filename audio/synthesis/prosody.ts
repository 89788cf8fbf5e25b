/**
 * Prosody presets: how an emotion or a language bends pitch, loudness and tempo, and the pitch contour
 * of a phrase (declination, accents, the final fall or question rise).
 */

import type { BreakKind } from './vocabulary.js';

/** What an emotion preset does to the voice. All factors are relative to neutral (1). */
export interface EmotionStyle {
  /** Multiplies the median pitch. */
  readonly pitchScale: number;
  /** Multiplies the size of pitch movements (accents, declination, final fall/rise). */
  readonly rangeScale: number;
  /** Multiplies loudness. */
  readonly energy: number;
  /** Multiplies the syllable rate. */
  readonly tempo: number;
  /** Added to the voice's breathiness. */
  readonly breathiness: number;
  /** Period-to-period pitch jitter, as a fraction. */
  readonly jitter: number;
}

/**
 * The six emotion presets the mock enables (`allowed-options`). Unknown names fall back to neutral.
 *
 * @example
 * emotionStyle('sad').pitchScale < 1; // true: sad speech is lower and slower
 */
export const emotionStyles: Readonly<Record<string, EmotionStyle>> = {
  neutral: { pitchScale: 1, rangeScale: 1, energy: 1, tempo: 1, breathiness: 0, jitter: 0.01 },
  happy: { pitchScale: 1.12, rangeScale: 1.45, energy: 1.08, tempo: 1.08, breathiness: 0, jitter: 0.012 },
  sad: { pitchScale: 0.9, rangeScale: 0.55, energy: 0.72, tempo: 0.84, breathiness: 0.12, jitter: 0.015 },
  angry: { pitchScale: 1.06, rangeScale: 1.3, energy: 1.3, tempo: 1.1, breathiness: -0.05, jitter: 0.02 },
  calm: { pitchScale: 0.95, rangeScale: 0.7, energy: 0.8, tempo: 0.9, breathiness: 0.05, jitter: 0.008 },
  excited: { pitchScale: 1.2, rangeScale: 1.7, energy: 1.18, tempo: 1.18, breathiness: 0, jitter: 0.014 },
};

/**
 * The preset an emotion name selects: the lowercased name when known, else `neutral` (so an unknown
 * emotion sounds, byte for byte, like neutral).
 */
export function emotionName(name: string | undefined): string {
  const key = (name ?? '').toLowerCase();
  return Object.hasOwn(emotionStyles, key) ? key : 'neutral';
}

/** Looks up an emotion preset; `undefined` or an unknown name gives neutral. */
export function emotionStyle(name: string | undefined): EmotionStyle {
  return emotionStyles[emotionName(name)] ?? neutral;
}
const neutral: EmotionStyle = {
  pitchScale: 1,
  rangeScale: 1,
  energy: 1,
  tempo: 1,
  breathiness: 0,
  jitter: 0.01,
};

/** A language's rough rhythm: syllable-timed languages vary less, stress-timed ones accent more. */
export interface LanguageRhythm {
  readonly tempo: number;
  /** Multiplies accent height and length. */
  readonly stress: number;
}

const rhythms: Readonly<Record<string, LanguageRhythm>> = {
  en: { tempo: 1, stress: 1.15 },
  de: { tempo: 0.96, stress: 1.2 },
  zh: { tempo: 1, stress: 0.75 },
  ja: { tempo: 1.08, stress: 0.6 },
  ko: { tempo: 1.04, stress: 0.7 },
  es: { tempo: 1.08, stress: 0.9 },
  it: { tempo: 1.05, stress: 0.95 },
  fr: { tempo: 1.04, stress: 0.7 },
  pt: { tempo: 1.02, stress: 1 },
};

/**
 * The rhythm of a language code (`en`, `en-US`...); unknown or missing codes give the neutral rhythm.
 *
 * @example
 * languageRhythm('ja').stress < languageRhythm('en').stress; // true
 */
export function languageRhythm(code: string | undefined): LanguageRhythm {
  return rhythms[languageName(code)] ?? { tempo: 1, stress: 1 };
}

/** The primary subtag of a language code when its rhythm is known (`en-US` → `en`), else ''. */
export function languageName(code: string | undefined): string {
  const key = (code ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(rhythms, key) ? key : '';
}

/** Pitch at the start and end of one syllable, as factors of the speaker's median pitch. */
export interface SyllablePitch {
  readonly start: number;
  readonly end: number;
}

/** A SyllablePitch of a class of its own, for the reason PitchContour is one (segment-timeline.ts). */
class SyllablePitchOf implements SyllablePitch {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
}

/**
 * The pitch contour of syllable `index` of a phrase of `count` syllables ending with `ending`:
 * declination from high to low, accented syllables peak then fall, and the last syllables fall for a
 * statement, rise for a question, rise a little before a comma.
 *
 * @example
 * const last = phrasePitch(4, 5, 'question', false, 1);
 * last.end > last.start; // true: questions rise
 */
export function phrasePitch(
  index: number,
  count: number,
  ending: BreakKind,
  accented: boolean,
  range: number,
): SyllablePitch {
  const position = count > 1 ? index / (count - 1) : 1;
  const base = 1 + range * (0.08 - 0.16 * position);
  const accent = accented ? 0.14 * range : 0;
  let start = base * (1 + accent);
  let end = base * (1 + accent * 0.3);
  const last = index === count - 1;
  if (ending === 'question') {
    if (last) end = base * (1 + 0.45 * range);
    else if (index === count - 2) end = base * (1 + 0.08 * range);
  } else if (ending === 'minor') {
    if (last) end = base * (1 + 0.07 * range);
  } else if (last) {
    start = Math.max(start, base * (1 + (ending === 'exclamation' ? 0.2 : 0.05) * range));
    end = base * (1 - 0.16 * range);
  }
  return new SyllablePitchOf(start, end);
}
