import { readVint } from './bytes.js';

/** Lacing bits of a Matroska block's flags (bits 1–2). */
export const lacing = { none: 0, xiph: 1, fixed: 2, ebml: 3 } as const;

/** The sizes of all laced frames but the last, and where the first frame starts; null when malformed. */
function lacedSizes(
  payload: Uint8Array,
  mode: number,
  count: number,
): { sizes: number[]; at: number } | null {
  const sizes: number[] = [];
  let at = 1;
  if (mode === lacing.fixed) {
    const each = (payload.length - 1) / count;
    return Number.isInteger(each) ? { sizes: new Array<number>(count - 1).fill(each), at } : null;
  }
  if (mode === lacing.xiph) {
    for (let f = 0; f < count - 1; f++) {
      let size = 0;
      let byte = 255;
      while (byte === 255) {
        byte = payload[at++] ?? -1;
        if (byte < 0) return null;
        size += byte;
      }
      sizes.push(size);
    }
    return { sizes, at };
  }
  // EBML lacing: the first size as is, each further one as a signed difference to the one before.
  let size = 0;
  for (let f = 0; f < count - 1; f++) {
    const read = readVint(payload, at);
    if (!read) return null;
    at += read.length;
    size = f === 0 ? read.value : size + read.value - (2 ** (7 * read.length - 1) - 1);
    if (size < 0) return null;
    sizes.push(size);
  }
  return { sizes, at };
}

/**
 * Splits the payload of a Matroska/WebM block into its frames. Browsers write one frame per block, but
 * the format lets a muxer lace several (Xiph, fixed-size or EBML sizes), and a decoder must be handed
 * frames, not blocks. Returns null for a lacing header that does not fit the payload (a corrupt block).
 *
 * @example
 * splitLaced(payload, lacing.none); // [payload]
 */
export function splitLaced(payload: Uint8Array, mode: number): Uint8Array[] | null {
  if (mode === lacing.none) return [payload];
  const count = (payload[0] ?? -1) + 1;
  if (count < 1) return null;
  const read = lacedSizes(payload, mode, count);
  if (!read) return null;
  const frames: Uint8Array[] = [];
  let at = read.at;
  for (const size of read.sizes) {
    if (at + size > payload.length) return null;
    frames.push(payload.subarray(at, at + size));
    at += size;
  }
  frames.push(payload.subarray(at));
  return frames;
}
