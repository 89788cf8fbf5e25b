/**
 * `--pcm-headers a,b,c` of the suite and the proxy: exactly three header names (sample rate, channels,
 * bit depth), each one that may carry data (common/header-names.ts: no framing, hop-by-hop, cookie or
 * CORS header), all different.
 */
import { dataHeaderProblem } from '../common/header-names.js';

export interface PcmHeaderNames {
  readonly sampleRate: string;
  readonly channels: string;
  readonly bitDepth: string;
}

/**
 * The three names of `value`, or the one problem with them (`source` is the flag or variable given).
 *
 * @example
 * pcmHeadersFlag('--pcm-headers', 'X-Rate,X-Channels,Content-Length');
 * // { problem: '--pcm-headers: "Content-Length" frames the body or says what it is; …' }
 */
export function pcmHeadersFlag(
  source: string,
  value: string,
): { readonly names: PcmHeaderNames } | { readonly problem: string } {
  const names = value.split(',').map((s) => s.trim());
  if (names.length !== 3 || names.some((n) => n === '' || /\s/.test(n)))
    return {
      problem: `${source} needs exactly three comma-separated header names (sample rate, channels, bit depth), got ${JSON.stringify(value)}`,
    };
  for (const name of names) {
    const problem = dataHeaderProblem(name);
    if (problem !== undefined) return { problem: `${source}: ${problem}` };
  }
  if (new Set(names.map((n) => n.toLowerCase())).size !== 3)
    return { problem: `${source}: the three header names must differ, got ${JSON.stringify(value)}` };
  const [sampleRate, channels, bitDepth] = names as [string, string, string];
  return { names: { sampleRate, channels, bitDepth } };
}
