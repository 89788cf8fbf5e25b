/**
 * Plans an utterance before any sample is rendered: text → phrases → syllables with durations, pitch
 * and loudness → a segment timeline with an exact total sample count. Planning is cheap (no audio), so a
 * stream knows its exact size before its first chunk; `planLazily` gets that size from a counting pass
 * and plans the segments phrase by phrase as they are rendered.
 */

import type { SynthesisRequest } from '../types.js';
import { SynthesisCaches } from './caches.js';
import type { Formants } from './phone-sounds.js';
import { type PhraseContext, speakPhrase, toPhrases } from './plan-phrase.js';
import { emotionName, emotionStyle, languageName, languageRhythm } from './prosody.js';
import { createRng, hashString, mixSeeds } from './rng.js';
import type { Segment } from './segment.js';
import { SegmentBuilder } from './segment-builder.js';
import { parseText } from './text.js';
import type { PlannedSize, PreparedUtterance, UtterancePlan } from './utterance.js';
import type { BreakKind, Token } from './vocabulary.js';

/** The effective speaking-rate factor: 0 or missing is 1, and the result is clamped to 0.25..4. */
export function effectiveRate(speed: number | undefined): number {
  if (speed === undefined || !Number.isFinite(speed) || speed <= 0) return 1;
  return Math.min(4, Math.max(0.25, speed));
}

const leadSeconds = 0.06;
const tailSeconds = 0.12;
/** What a text with nothing to say (whitespace, punctuation, unknown tags, a lone [whisper]) yields. */
const emptySeconds = 0.3;
const breakSeconds: Readonly<Record<BreakKind, number>> = {
  minor: 0.26,
  statement: 0.5,
  exclamation: 0.45,
  question: 0.5,
};

/** Per-voice, per-formant offsets (±4%) so two voices with the same scale still differ in colour. */
function voiceFormantScale(scale: number, seed: number): Formants {
  const rng = createRng(mixSeeds(seed, 0xf0));
  return [scale * rng.range(0.96, 1.04), scale * rng.range(0.96, 1.04), scale * rng.range(0.96, 1.04)];
}

function prepare(request: SynthesisRequest, sampleRate: number, caches: SynthesisCaches): PreparedUtterance {
  const { voice } = request;
  const parsed = parseText(request.text, caches);
  const style = emotionStyle(request.emotion);
  const rhythm = languageRhythm(request.language);
  const seed = mixSeeds(
    voice.seed,
    hashString(parsed.spoken),
    hashString(emotionName(request.emotion)),
    hashString(languageName(request.language)),
  );
  const tempo = effectiveRate(request.speed) * style.tempo * rhythm.tempo;
  const pitch = voice.pitchHz * style.pitchScale;
  return {
    parsed,
    phrases: toPhrases(parsed.tokens),
    request,
    sampleRate,
    seed,
    style,
    rhythm,
    tempo,
    pitch,
  };
}

function builderFor(
  { request: { voice }, sampleRate, style, pitch }: PreparedUtterance,
  counts?: SynthesisCaches['counts'],
): SegmentBuilder {
  return new SegmentBuilder(
    {
      sampleRate,
      formantScale: voiceFormantScale(voice.formantScale, voice.seed),
      breathiness: Math.max(0, Math.min(0.6, voice.breathiness + style.breathiness)) * 0.35,
    },
    pitch,
    counts,
  );
}

/**
 * Whether the text gives anything to play: words, or a tag that takes time (a laugh, a sigh, a breath,
 * a pause), which is played as inside a sentence even when it is the whole text. [whisper] only changes
 * how words sound, so with no words it has nothing to act on.
 */
function hasContent(tokens: readonly Token[]): boolean {
  return tokens.some((token) => token.kind === 'word' || (token.kind === 'tag' && token.tag !== 'whisper'));
}

/** Speaks the utterance into `builder`, pausing after each phrase; every run makes the same calls. */
function* speak(prepared: PreparedUtterance, builder: SegmentBuilder): Generator<void, void, void> {
  const { parsed, phrases, request, seed, style, rhythm, tempo, pitch } = prepared;
  const { voice } = request;
  if (!hasContent(parsed.tokens)) {
    builder.gap(emptySeconds);
    return;
  }
  const rng = createRng(seed);
  const context: PhraseContext = {
    builder,
    rng,
    pitch,
    range: style.rangeScale * rhythm.stress,
    stress: rhythm.stress,
    energy: style.energy,
    syllableSeconds: 1 / voice.syllablesPerSecond / tempo,
    timeScale: 4.5 / voice.syllablesPerSecond / tempo,
    pauseScale: 1 / tempo,
    tagSeed: seed,
  };
  builder.gap(leadSeconds);
  for (const phrase of phrases) {
    speakPhrase(phrase, context);
    builder.gap(breakSeconds[phrase.ending] * context.pauseScale * rng.range(0.9, 1.1));
    if (phrase.ending !== 'minor') builder.whisper = false;
    yield;
  }
  builder.gap(tailSeconds);
}

/**
 * Plans the whole utterance of a request. `caches` keeps the syllables of its words for later requests (a
 * fresh one, dropped after the call, when none is passed).
 *
 * @example
 * const plan = planUtterance(request, 24000);
 * plan.totalSamples / plan.sampleRate; // the duration in seconds, known before rendering
 */
export function planUtterance(
  request: SynthesisRequest,
  sampleRate: number,
  caches: SynthesisCaches = new SynthesisCaches(),
): UtterancePlan {
  const prepared = prepare(request, sampleRate, caches);
  const builder = builderFor(prepared);
  for (const _ of speak(prepared, builder)) {
    // every phrase at once
  }
  return {
    segments: builder.segments,
    totalSamples: builder.totalSamples,
    sampleRate,
    seed: prepared.seed,
    jitter: prepared.style.jitter,
  };
}

/**
 * The key of a request in `SynthesisCaches.plans`: everything that shapes the timeline, not the format or
 * the chunk length. The plan is a pure function of these fields, so a hit changes no byte.
 */
function plannedKey(request: SynthesisRequest, sampleRate: number): string {
  const { voice, speed, emotion, language, text } = request;
  return `${voice.id}\u0000${voice.seed}\u0000${sampleRate}\u0000${speed}\u0000${emotion}\u0000${language}\u0000${text}`;
}

/** The exact sample count of a prepared utterance; what it learns of syllables stays in `caches`. */
function countSamples(prepared: PreparedUtterance, caches: SynthesisCaches): number {
  const counter = builderFor(prepared, caches.counts);
  counter.countOnly = true;
  for (const _ of speak(prepared, counter)) {
    // count every phrase
  }
  return counter.totalSamples;
}

/**
 * The request's parse and exact sample count: from `caches.plans` when an identical request came lately.
 * A hit must also be the same voice object: a custom voice deleted and remade under another profile is
 * never mistaken for it.
 */
function plannedSize(request: SynthesisRequest, sampleRate: number, caches: SynthesisCaches): PlannedSize {
  const key = plannedKey(request, sampleRate);
  const known = caches.plans.get(key);
  if (known && known.voice === request.voice) return known;
  const prepared = prepare(request, sampleRate, caches);
  return caches.plans.set(key, {
    voice: request.voice,
    prepared,
    totalSamples: countSamples(prepared, caches),
  });
}

/** A plan made as it is rendered (`planLazily`, `planUncounted`): how many samples are planned so far. */
export interface GrowingPlan extends UtterancePlan {
  readonly more: () => boolean;
  /** The samples planned so far: the whole utterance's once `more()` has answered false. */
  readonly planned: () => number;
}

/** The lazy plan of a prepared utterance, of `totalSamples` when counted (else NaN). */
function growingPlan(prepared: PreparedUtterance, totalSamples: number): GrowingPlan {
  const builder = builderFor(prepared);
  const steps = speak(prepared, builder);
  const segments = builder.segments as (Segment | undefined)[];
  let finished = false;
  let released = 0;
  return {
    segments: builder.segments,
    totalSamples,
    sampleRate: prepared.sampleRate,
    seed: prepared.seed,
    jitter: prepared.style.jitter,
    more: () => {
      if (finished) return false;
      finished = steps.next().done === true;
      return true;
    },
    planned: () => builder.totalSamples,
    // Rendered segments are let go, so a long or one of many concurrent streams holds one phrase.
    release: (index) => {
      for (; released < index; released++) segments[released] = undefined;
    },
  };
}

/**
 * The same plan, made as it is rendered: a counting pass (no segments kept) gives the exact size at
 * once, then `more()` plans one phrase at a time. A stream's first chunk no longer waits for the
 * segments of the whole text (5,000 characters took ~10 ms to plan before; the count takes a fraction,
 * and an identical request made lately skips it when `caches` holds it, see `plannedSize`). Without
 * `caches`, a fresh one is used and dropped with the plan.
 *
 * Render it once: the renderer releases the segments it has passed.
 *
 * @example
 * const plan = planLazily(request, 24000, caches); // totalSamples is exact; new Renderer(plan) pulls phrases
 */
export function planLazily(
  request: SynthesisRequest,
  sampleRate: number,
  caches: SynthesisCaches = new SynthesisCaches(),
): GrowingPlan {
  const { prepared, totalSamples } = plannedSize(request, sampleRate, caches);
  return growingPlan(prepared, totalSamples);
}

/**
 * The same plan without the counting pass, for audio whose first bytes carry no size (raw PCM):
 * `totalSamples` is NaN, and `planned()` is the size once `more()` has answered false. Under 50
 * streams at once, each new one's count of its 2,000 characters (~0.1 ms) was work every stream after
 * it waited for before its first byte. An identical request counted lately is planned from `caches`
 * with its size.
 *
 * @example
 * const plan = planUncounted(request, 24000, caches); // render until plan.more() is false
 */
export function planUncounted(
  request: SynthesisRequest,
  sampleRate: number,
  caches: SynthesisCaches = new SynthesisCaches(),
): GrowingPlan {
  const known = caches.plans.get(plannedKey(request, sampleRate));
  if (known && known.voice === request.voice) return growingPlan(known.prepared, known.totalSamples);
  return growingPlan(prepare(request, sampleRate, caches), Number.NaN);
}

/**
 * The exact sample count of a request (its parse and count kept in `caches`, see `plannedSize`).
 *
 * @example
 * countedSamples(request, 24000, caches) / 24000; // the duration in seconds
 */
export function countedSamples(
  request: SynthesisRequest,
  sampleRate: number,
  caches: SynthesisCaches,
): number {
  return plannedSize(request, sampleRate, caches).totalSamples;
}
