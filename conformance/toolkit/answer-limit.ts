/**
 * How many bytes of an answer the suite and the explorer read at most, by what was asked: a deployment
 * cannot make a run hold an unbounded answer, and an answer past its limit is a finding. The spec
 * states no sizes; these bounds are the kit's, far above what a conforming deployment sends.
 */
import { answerLimitBytes } from './http.js';

/** JSON answers (lists, saves, uploads, deletes, refusals): a full page of a list is a few KiB. */
export const jsonLimitBytes = 4 * 2 ** 20;

/**
 * The most bytes audio of a text could make: one second per character (speech runs at about 15), at
 * least 10 s, a slower `speed` in proportion (down to a quarter), as 48 kHz stereo 16-bit PCM
 * (192,000 bytes a second, more than any format of the contract), plus 64 KiB of headers and tags;
 * never more than {@link answerLimitBytes}, so a long text cannot make a run hold hundreds of MB (the
 * 4,000 characters the suite streams are about 270 s of speech: 51 MB even as 48 kHz stereo PCM).
 *
 * @example audioLimitBytes('Hello.'); // 1,985,536: 10 s at 192,000 bytes a second, plus 64 KiB
 */
export function audioLimitBytes(text: unknown, speed?: unknown): number {
  const chars = typeof text === 'string' ? [...text].length : 0;
  const slower = typeof speed === 'number' && speed > 0 && speed < 1 ? Math.max(speed, 0.25) : 1;
  return Math.min(answerLimitBytes, Math.ceil((Math.max(10, chars) * 192_000) / slower) + 65_536);
}

const synthesis = new Set(['synthesizeSpeech', 'streamSpeech']);

/** The limit of an answer to `op` (null: a request outside the operations, a signed voice_url). */
export function answerLimitOf(op: string | null | undefined, json: unknown): number {
  if (!op) return answerLimitBytes;
  if (!synthesis.has(op)) return jsonLimitBytes;
  const body = (typeof json === 'object' && json ? json : {}) as Record<string, unknown>;
  return audioLimitBytes(body.generate_text ?? body.text, body.speed);
}

/** A finding's words for an answer cut at its limit. */
export function overLimitText(op: string | null | undefined, limit: number): string {
  const what =
    op && synthesis.has(op)
      ? limit >= answerLimitBytes
        ? 'any answer the kit reads'
        : 'any audio the text asked for could make'
      : 'any answer of the contract needs';
  return `the answer went past ${limit} bytes, more than ${what} (the kit's limit); the rest was not read`;
}
