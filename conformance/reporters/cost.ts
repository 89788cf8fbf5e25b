import type { RunBilling } from '../types.js';

/**
 * The voices of a run in one phrase whose numbers add up: every created voice was deleted by a case,
 * deleted by the cleanup, or is left. When a deployment makes them not add up (a refused save that
 * created a voice anyway, a saved voice the list never shows), the difference is named.
 *
 * @example
 * voicesPhrase(billing); // 'Voices created: 27 (1 deleted by the cases, 26 by cleanup), left: 0'
 */
export function voicesPhrase(b: RunBilling): string {
  const text = `Voices created: ${b.voicesCreated} (${b.voicesDeletedByCases} deleted by the cases, ${b.voicesDeleted} by cleanup), left: ${b.voicesRemaining}`;
  const extra = b.voicesDeletedByCases + b.voicesDeleted + b.voicesRemaining - b.voicesCreated;
  if (extra > 0) return `${text}; ${extra} more found by the cleanup than successful saves reported`;
  if (extra < 0) return `${text}; ${-extra} saved but never listed, so not counted as deleted or left`;
  return text;
}
