/**
 * Punctuation and expression tags in a text: which marks break a phrase and how strongly, and which
 * `[tag]` names the parser knows. Constant tables only.
 */

import type { BreakKind, TagKind } from './vocabulary.js';

/** Known `[tag]` names, lowercased with single spaces, and the tag each one is. */
export const tagAliases: Readonly<Record<string, TagKind>> = {
  laugh: 'laugh',
  laughs: 'laugh',
  laughing: 'laugh',
  laughter: 'laugh',
  chuckle: 'laugh',
  giggle: 'laugh',
  sigh: 'sigh',
  sighs: 'sigh',
  breath: 'breath',
  breathe: 'breath',
  breathes: 'breath',
  inhale: 'breath',
  exhale: 'breath',
  pause: 'pause',
  'short pause': 'pause',
  'long pause': 'long-pause',
  whisper: 'whisper',
  whispers: 'whisper',
  whispering: 'whisper',
};

/** How strong each break is: a run of marks ("?!", "...") is one break of the strongest. */
export const breakRank: Readonly<Record<BreakKind, number>> = {
  minor: 1,
  statement: 2,
  exclamation: 3,
  question: 4,
};
const breakOf: Readonly<Record<string, BreakKind>> = {
  ',': 'minor',
  ';': 'minor',
  ':': 'minor',
  '(': 'minor',
  ')': 'minor',
  '—': 'minor',
  '–': 'minor',
  '、': 'minor',
  '，': 'minor',
  '；': 'minor',
  '：': 'minor',
  '.': 'statement',
  '…': 'statement',
  '。': 'statement',
  '\n': 'statement',
  '!': 'exclamation',
  '！': 'exclamation',
  '?': 'question',
  '？': 'question',
  '¿': 'minor',
  '¡': 'minor',
};

/** Break marks by code unit (all are one), so the scan needs no lookup by string. */
export const asciiBreaks: readonly (BreakKind | undefined)[] = Array.from(
  { length: 0x80 },
  (_, code) => breakOf[String.fromCharCode(code)],
);
export const otherBreaks = new Map<number, BreakKind>(
  Object.entries(breakOf)
    .filter(([mark]) => mark.charCodeAt(0) >= 0x80)
    .map(([mark, strength]) => [mark.charCodeAt(0), strength]),
);
