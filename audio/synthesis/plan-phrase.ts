/**
 * Speaks the phrases of an utterance into a segment builder: syllable durations, accents, the pitch
 * contour and loudness of each syllable, and the sounds of expression tags. Every run over the same
 * phrases makes the same random draws in the same order, counting pass or not: a counting pass only
 * skips the pitch and loudness its samples do not depend on.
 */

import { phrasePitch } from './prosody.js';
import { createRng, mixSeeds, type Rng } from './rng.js';
import type { SegmentBuilder } from './segment-builder.js';
import type { BreakKind, Syllable, TagKind, Token } from './vocabulary.js';

/**
 * The tokens up to a break (`tokens[start]` to `tokens[end - 1]`, the break itself not among them), the
 * break, and how many syllables its words have. A range of the parse's tokens, not a copy of them.
 */
export interface Phrase {
  readonly tokens: readonly Token[];
  readonly start: number;
  readonly end: number;
  readonly ending: BreakKind;
  readonly syllables: number;
}

/** Splits tokens into phrases at their breaks; the last phrase ends as a statement. */
export function toPhrases(tokens: readonly Token[]): Phrase[] {
  const phrases: Phrase[] = [];
  let start = 0;
  let syllables = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'break') {
      phrases.push({ tokens, start, end: i, ending: token.strength, syllables });
      start = i + 1;
      syllables = 0;
    } else if (token.kind === 'word') {
      syllables += token.syllables.length;
    }
  }
  if (start < tokens.length)
    phrases.push({ tokens, start, end: tokens.length, ending: 'statement', syllables });
  return phrases;
}

/** What every syllable of an utterance needs to know, and the tag seed that moves on with each tag. */
export interface PhraseContext {
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

/**
 * Speaks one phrase: words with short gaps between them, and tags in their place (in a counting pass,
 * the same draws and only the samples).
 */
export function speakPhrase(phrase: Phrase, ctx: PhraseContext): void {
  walkPhrase(phrase, ctx, ctx.builder.countOnly ? countSyllable : speakSyllable);
}

/** What is done with each syllable of a phrase: spoken, or in a counting pass only counted. */
type SyllableStep = (
  syllable: Syllable,
  index: number,
  phrase: Phrase,
  accented: boolean,
  ctx: PhraseContext,
) => void;

/** The phrase's tokens in order: tags played in their place, a gap between words, `step` per syllable. */
function walkPhrase(phrase: Phrase, ctx: PhraseContext, step: SyllableStep): void {
  let index = 0;
  let previousWasWord = false;
  const { tokens, end } = phrase;
  for (let t = phrase.start; t < end; t++) {
    const item = tokens[t] as Token;
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
      step(syllables[i] as Syllable, index, phrase, accented, ctx);
      index++;
    }
    previousWasWord = true;
  }
}

/**
 * A syllable in a counting pass: the same draws as `speakSyllable`, and only its duration, whose
 * samples the builder adds.
 */
const countSyllable: SyllableStep = (syllable, index, phrase, accented, ctx) => {
  ctx.rng.next(); // the wobble: it moves the pitch only, but every later draw follows it
  const seconds = syllableSeconds(accented, index === phrase.syllables - 1, ctx);
  ctx.builder.countSyllable(syllable, seconds, ctx.timeScale);
};

/** A syllable's duration (after its wobble is drawn): the draw that sets it, counting pass or not. */
function syllableSeconds(accented: boolean, last: boolean, ctx: PhraseContext): number {
  return (
    ctx.syllableSeconds *
    (accented ? 1 + 0.15 * ctx.stress : 0.92) *
    ctx.rng.range(0.9, 1.1) *
    (last ? 1.3 : 1)
  );
}

function speakSyllable(
  syllable: Syllable,
  index: number,
  phrase: Phrase,
  accented: boolean,
  ctx: PhraseContext,
): void {
  const last = index === phrase.syllables - 1;
  const wobble = ctx.rng.range(0.97, 1.03);
  const seconds = syllableSeconds(accented, last, ctx);
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
