import { silentWavHeader } from '../toolkit/multipart.js';

/** A tiny well-formed WAV (0.1 s of silence): for cases where only the request shape matters. */
export function tinyWav(): Uint8Array {
  const size = 44 + 48_000 * 4 * 0.1;
  const out = new Uint8Array(size);
  out.set(silentWavHeader(size));
  return out;
}

const sentences = [
  'The quick brown fox jumps over the lazy dog.',
  'A journey of a thousand miles begins with a single step.',
  'She sells sea shells by the sea shore, and the shells she sells are surely sea shells.',
  'Every morning the baker opens the shop before sunrise and the smell of bread fills the street.',
];

/**
 * Plain English text of at least `chars` characters, made of whole sentences (deterministic).
 *
 * @example
 * longText(2000).length >= 2000 // true
 */
export function longText(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${sentences[i % sentences.length]} `;
  return out.trim();
}

/** A short sentence for cheap synthesis requests. */
export const shortText = 'Hello, this is a conformance check.';

/** True when a string looks like an http(s) address (§2.2: no public address may be returned). */
export function isUrl(v: unknown): boolean {
  return typeof v === 'string' && /^https?:\/\//i.test(v.trim());
}

/** Every string value in a JSON value, with its JSON pointer. */
export function stringsIn(v: unknown, pointer = ''): Array<readonly [string, string]> {
  if (typeof v === 'string') return [[pointer, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringsIn(x, `${pointer}/${i}`));
  if (v && typeof v === 'object') {
    return Object.entries(v).flatMap(([k, x]) =>
      stringsIn(x, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  }
  return [];
}
