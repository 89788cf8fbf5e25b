/**
 * Latin letters → pseudo-syllables. Spelling rules are rough English-ish guesses: enough to give each
 * word a plausible count of syllables with consonant clusters, never a pronunciation dictionary.
 */

import type { Phone, Syllable, Vowel } from './vocabulary.js';

type Unit = { readonly vowel: Vowel } | { readonly phone: Phone };

const digraphs: Readonly<Record<string, readonly Phone[]>> = {
  sh: ['sh'],
  ch: ['ch'],
  th: ['th'],
  ph: ['f'],
  ck: ['k'],
  qu: ['k', 'w'],
  gh: ['g'],
  wh: ['w'],
};
const singles: Readonly<Record<string, readonly Phone[]>> = {
  b: ['b'],
  d: ['d'],
  f: ['f'],
  g: ['g'],
  h: ['h'],
  j: ['j'],
  k: ['k'],
  l: ['l'],
  m: ['m'],
  n: ['n'],
  p: ['p'],
  q: ['k'],
  r: ['r'],
  s: ['s'],
  t: ['t'],
  v: ['v'],
  w: ['w'],
  x: ['k', 's'],
  z: ['z'],
};
const isVowelLetter = (c: string | undefined): c is Vowel =>
  c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

/** Letters → a flat sequence of vowels and consonant phones. */
function toUnits(word: string): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < word.length; i++) {
    const c = word[i] ?? '';
    const next = word[i + 1];
    const pair = digraphs[c + (next ?? '')];
    if (pair) {
      for (const phone of pair) units.push({ phone });
      i++;
    } else if (isVowelLetter(c)) {
      units.push({ vowel: c });
    } else if (c === 'y') {
      units.push(isVowelLetter(next) && i === 0 ? { phone: 'j' } : { vowel: 'i' });
    } else if (c === 'c') {
      units.push({ phone: next === 'e' || next === 'i' || next === 'y' ? 's' : 'k' });
    } else {
      for (const phone of singles[c] ?? []) units.push({ phone });
    }
  }
  return units;
}

interface Nucleus {
  readonly vowels: Vowel[];
  readonly before: Phone[];
}

/**
 * Splits a lowercase a-z word into syllables by maximal onset: one consonant between vowels goes to the
 * next syllable, clusters are shared. A word without vowels ("bbc", "hmm") gets an /e/ per consonant pair.
 *
 * @example
 * syllabify('hello').length; // 2
 */
export function syllabify(word: string): Syllable[] {
  const units = toUnits(word);
  const nuclei: Nucleus[] = [];
  let pending: Phone[] = [];
  for (const unit of units) {
    if ('vowel' in unit) {
      const last = nuclei[nuclei.length - 1];
      // Two adjacent vowels glide within one syllable; a third starts a new one.
      if (last && pending.length === 0 && last.vowels.length < 2) {
        if (last.vowels[0] !== unit.vowel) last.vowels.push(unit.vowel);
      } else {
        nuclei.push({ vowels: [unit.vowel], before: pending });
        pending = [];
      }
    } else {
      pending.push(unit.phone);
    }
  }
  if (nuclei.length === 0) {
    return consonantsOnly(pending);
  }
  const syllables: { onset: Phone[]; nucleus: Vowel[]; coda: Phone[] }[] = [];
  for (const [i, nucleus] of nuclei.entries()) {
    const cluster = nucleus.before;
    if (i === 0) {
      syllables.push({ onset: cluster.slice(-3), nucleus: nucleus.vowels, coda: [] });
      continue;
    }
    const toOnset = cluster.length >= 4 ? 2 : cluster.length >= 1 ? Math.max(1, cluster.length - 1) : 0;
    const previous = syllables[syllables.length - 1];
    previous?.coda.push(...cluster.slice(0, cluster.length - toOnset).slice(-2));
    syllables.push({ onset: cluster.slice(cluster.length - toOnset), nucleus: nucleus.vowels, coda: [] });
  }
  syllables[syllables.length - 1]?.coda.push(...pending.slice(0, 3));
  return syllables;
}

function consonantsOnly(phones: readonly Phone[]): Syllable[] {
  const syllables: Syllable[] = [];
  for (let i = 0; i < phones.length; i += 2) {
    syllables.push({ onset: phones.slice(i, i + 1), nucleus: ['e'], coda: phones.slice(i + 1, i + 2) });
  }
  return syllables;
}
