/**
 * Plans an utterance before any sample is rendered: text → phrases → syllables with durations, pitch
 * and loudness → a segment timeline with an exact total sample count. Planning is cheap (no audio), so a
 * stream knows its exact size before its first chunk; `planLazily` gets that size from a counting pass
 * and plans the segments phrase by phrase as they are rendered.
 */

import type { SynthesisRequest } from '../types.js';
import type { Formants } from './phone-sounds.js';
import { emotionName, emotionStyle, languageName, languageRhythm, phrasePitch } from './prosody.js';
import { createRng, hashString, mixSeeds, type Rng } from './rng.js';
import { type Segment, SegmentBuilder } from './segment-builder.js';
import { type BreakKind, parseText, type Syllable, type TagKind, type Token } from './text.js';

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

interface Phrase {
  readonly items: readonly Token[];
  readonly ending: BreakKind;
  readonly syllables: number;
}

function toPhrases(tokens: readonly Token[]): Phrase[] {
  const phrases: Phrase[] = [];
  let items: Token[] = [];
  let syllables = 0;
  for (const token of tokens) {
    if (token.kind === 'break') {
      phrases.push({ items, ending: token.strength, syllables });
      items = [];
      syllables = 0;
    } else {
      items.push(token);
      if (token.kind === 'word') syllables += token.syllables.length;
    }
  }
  if (items.length > 0) phrases.push({ items, ending: 'statement', syllables });
  return phrases;
}

/** Per-voice, per-formant offsets (±4%) so two voices with the same scale still differ in colour. */
function voiceFormantScale(scale: number, seed: number): Formants {
  const rng = createRng(mixSeeds(seed, 0xf0));
  return [scale * rng.range(0.96, 1.04), scale * rng.range(0.96, 1.04), scale * rng.range(0.96, 1.04)];
}

interface Prepared {
  readonly parsed: ReturnType<typeof parseText>;
  readonly request: SynthesisRequest;
  readonly sampleRate: number;
  readonly seed: number;
  readonly style: ReturnType<typeof emotionStyle>;
  readonly rhythm: ReturnType<typeof languageRhythm>;
  readonly tempo: number;
  readonly pitch: number;
}

function prepare(request: SynthesisRequest, sampleRate: number): Prepared {
  const { voice } = request;
  const parsed = parseText(request.text);
  const style = emotionStyle(request.emotion);
  const rhythm = languageRhythm(request.language);
  const seed = mixSeeds(
    voice.seed,
    hashString(parsed.spoken),
    hashString(emotionName(request.emotion)),
    hashString(languageName(request.language)),
  );
  const tempo = effectiveRate(request.speed) * style.tempo * rhythm.tempo;
  return { parsed, request, sampleRate, seed, style, rhythm, tempo, pitch: voice.pitchHz * style.pitchScale };
}

function builderFor({ request: { voice }, sampleRate, style, pitch }: Prepared): SegmentBuilder {
  return new SegmentBuilder(
    {
      sampleRate,
      formantScale: voiceFormantScale(voice.formantScale, voice.seed),
      breathiness: Math.max(0, Math.min(0.6, voice.breathiness + style.breathiness)) * 0.35,
    },
    pitch,
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
function* speak(prepared: Prepared, builder: SegmentBuilder): Generator<void, void, void> {
  const { parsed, request, seed, style, rhythm, tempo, pitch } = prepared;
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
  for (const phrase of toPhrases(parsed.tokens)) {
    speakPhrase(phrase, context);
    builder.gap(breakSeconds[phrase.ending] * context.pauseScale * rng.range(0.9, 1.1));
    if (phrase.ending !== 'minor') builder.whisper = false;
    yield;
  }
  builder.gap(tailSeconds);
}

/**
 * Plans the whole utterance of a request.
 *
 * @example
 * const plan = planUtterance(request, 24000);
 * plan.totalSamples / plan.sampleRate; // the duration in seconds, known before rendering
 */
export function planUtterance(request: SynthesisRequest, sampleRate: number): UtterancePlan {
  const prepared = prepare(request, sampleRate);
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

/** A request's parse and exact size, kept for the next identical request (see `plannedSize`). */
interface Planned {
  readonly voice: SynthesisRequest['voice'];
  readonly prepared: Prepared;
  readonly totalSamples: number;
}

/**
 * The last few plans' parse and size, by everything that shapes the timeline (not the format or the
 * chunk length). Test suites and load tests send the same texts again and again; a 5,000-character
 * text costs ~1 ms to parse and count before its first byte, which an identical request now skips.
 * The plan is a pure function of these fields, so a hit changes no byte. A hit must also be the same
 * voice object: a custom voice deleted and remade under another profile is never mistaken for it.
 * Bounded (a parsed 5,000-character text is ~100 KB), process-wide, and holds no audio.
 */
const plannedCapacity = 16;
const planned = new Map<string, Planned>();

function plannedKey(request: SynthesisRequest, sampleRate: number): string {
  const { voice, speed, emotion, language, text } = request;
  return `${voice.id}\u0000${voice.seed}\u0000${sampleRate}\u0000${speed}\u0000${emotion}\u0000${language}\u0000${text}`;
}

function countSamples(prepared: Prepared): number {
  const counter = builderFor(prepared);
  counter.countOnly = true;
  for (const _ of speak(prepared, counter)) {
    // count every phrase
  }
  return counter.totalSamples;
}

/** The request's parse and exact sample count: from the memo when an identical request came lately. */
function plannedSize(request: SynthesisRequest, sampleRate: number): Planned {
  const key = plannedKey(request, sampleRate);
  const known = planned.get(key);
  if (known && known.voice === request.voice) {
    // Most recently used last, so the oldest is the first to go.
    planned.delete(key);
    planned.set(key, known);
    return known;
  }
  const prepared = prepare(request, sampleRate);
  const entry: Planned = { voice: request.voice, prepared, totalSamples: countSamples(prepared) };
  planned.delete(key);
  if (planned.size >= plannedCapacity) planned.delete(planned.keys().next().value as string);
  planned.set(key, entry);
  return entry;
}

/**
 * The same plan, made as it is rendered: a counting pass (no segments kept) gives the exact size at
 * once, then `more()` plans one phrase at a time. A stream's first chunk no longer waits for the
 * segments of the whole text (5,000 characters took ~10 ms to plan before; the count takes a fraction,
 * and an identical request made lately skips it, see `plannedSize`).
 *
 * Render it once: the renderer releases the segments it has passed.
 *
 * @example
 * const plan = planLazily(request, 24000); // plan.totalSamples is exact; new Renderer(plan) pulls phrases
 */
export function planLazily(request: SynthesisRequest, sampleRate: number): UtterancePlan {
  const { prepared, totalSamples } = plannedSize(request, sampleRate);
  const builder = builderFor(prepared);
  const steps = speak(prepared, builder);
  const segments = builder.segments as (Segment | undefined)[];
  let finished = false;
  let released = 0;
  return {
    segments: builder.segments,
    totalSamples,
    sampleRate,
    seed: prepared.seed,
    jitter: prepared.style.jitter,
    more: () => {
      if (finished) return false;
      finished = steps.next().done === true;
      return true;
    },
    // Rendered segments are let go, so a long or one of many concurrent streams holds one phrase.
    release: (index) => {
      for (; released < index; released++) segments[released] = undefined;
    },
  };
}

interface PhraseContext {
  readonly builder: SegmentBuilder;
  readonly rng: Rng;
  readonly pitch: number;
  readonly range: number;
  readonly stress: number;
  readonly energy: number;
  readonly syllableSeconds: number;
  readonly timeScale: number;
  readonly pauseScale: number;
  tagSeed: number;
}

function speakPhrase(phrase: Phrase, ctx: PhraseContext): void {
  let index = 0;
  let previousWasWord = false;
  for (const item of phrase.items) {
    if (item.kind === 'tag') {
      ctx.tagSeed = mixSeeds(ctx.tagSeed, 0x7a9);
      playTag(item.tag, ctx);
      previousWasWord = false;
      continue;
    }
    if (item.kind !== 'word') continue;
    if (previousWasWord) ctx.builder.gap(0.045 * ctx.pauseScale * ctx.rng.range(0.7, 1.3));
    const syllables = item.syllables;
    for (let i = 0; i < syllables.length; i++) {
      const accented = syllables.length > 1 ? i === 0 : ctx.rng.next() < Math.min(0.8, 0.4 * ctx.stress);
      speakSyllable(syllables[i] as Syllable, index, phrase, accented, ctx);
      index++;
    }
    previousWasWord = true;
  }
}

function speakSyllable(
  syllable: Syllable,
  index: number,
  phrase: Phrase,
  accented: boolean,
  ctx: PhraseContext,
): void {
  const last = index === phrase.syllables - 1;
  // Both draws happen in a counting pass too: they set every later syllable's duration.
  const wobble = ctx.rng.range(0.97, 1.03);
  const seconds =
    ctx.syllableSeconds *
    (accented ? 1 + 0.15 * ctx.stress : 0.92) *
    ctx.rng.range(0.9, 1.1) *
    (last ? 1.3 : 1);
  if (ctx.builder.countOnly) {
    // Pitch and level shape no segment's length: a counting pass needs only the duration.
    ctx.builder.syllable(syllable, seconds, 0, ctx.timeScale);
    return;
  }
  const position = phrase.syllables > 1 ? index / (phrase.syllables - 1) : 1;
  const contour = phrasePitch(index, phrase.syllables, phrase.ending, accented, ctx.range);
  const level = (accented ? 1 : 0.82) * (1 - 0.15 * position) * (last ? 0.9 : 1) * ctx.energy;
  ctx.builder.pitch(ctx.pitch * contour.start * wobble, ctx.pitch * contour.end * wobble, seconds);
  ctx.builder.syllable(syllable, seconds, level, ctx.timeScale);
}

/** Known expression tags: never spoken, they add a pause, a non-speech sound, or whisper the sentence. */
function playTag(tag: TagKind, ctx: PhraseContext): void {
  const b = ctx.builder;
  const rng = createRng(ctx.tagSeed);
  const s = ctx.pauseScale;
  switch (tag) {
    case 'pause':
      b.gap(0.5 * s);
      return;
    case 'long-pause':
      b.gap(1 * s);
      return;
    case 'whisper':
      b.whisper = true;
      return;
    case 'breath':
      b.gap(0.08 * s);
      b.pitch(ctx.pitch, ctx.pitch, 0.4);
      b.at(0.15, { voice: 0, aspiration: 0.16, formants: b.scale([500, 1400, 2500]) });
      b.at(0.1, { voice: 0, aspiration: 0.18 });
      b.at(0.15, { voice: 0, aspiration: 0 });
      b.gap(0.08 * s);
      return;
    case 'sigh':
      b.gap(0.08 * s);
      b.pitch(ctx.pitch * 1.05, ctx.pitch * 0.78, 0.7);
      b.at(0.1, { voice: 0.12, aspiration: 0.25, formants: b.scale([700, 1250, 2600]) });
      b.at(0.4, { voice: 0.15, aspiration: 0.2, formants: b.scale([500, 1600, 2550]) });
      b.at(0.2, { voice: 0, aspiration: 0 });
      b.gap(0.1 * s);
      return;
    case 'laugh': {
      b.gap(0.08 * s);
      const count = 3 + rng.int(2);
      for (let k = 0; k < count; k++) {
        const f0 = ctx.pitch * (1.4 - 0.07 * k) * rng.range(0.97, 1.03);
        b.pitch(f0, f0 * 0.92, 0.17 * s);
        b.at(0.035 * s, { voice: 0, aspiration: 0.25, formants: b.scale([760, 1250, 2600]) });
        b.at(0.09 * s, { voice: 0.85 * ctx.energy });
        b.at(0.03 * s, { voice: 0 });
        b.gap(0.06 * s);
      }
      return;
    }
  }
}
