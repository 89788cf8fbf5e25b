/** The boxes of an ISO BMFF (M4A/MP4) file: size, type, body, nested boxes. */

import { readAscii, readUintBE } from './bytes.js';

/** A box of an ISO BMFF file, located in its bytes. */
export interface Box {
  readonly type: string;
  /** Where the body starts (after size, type and any 64-bit size). */
  readonly body: number;
  readonly end: number;
}

/** The child boxes between `start` and `end`; stops at a box that does not fit (a truncated file). */
export function children(bytes: Uint8Array, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = readUintBE(bytes, at, 4);
    let header = 8;
    if (size === 1) {
      size = readUintBE(bytes, at + 8, 8);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    boxes.push({ type: readAscii(bytes, at + 4, 4), body: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

export const child = (bytes: Uint8Array, box: Box | undefined, type: string): Box | undefined =>
  box && children(bytes, box.body, box.end).find((candidate) => candidate.type === type);
