/**
 * The byte reader every container parser uses: EBML variable-length integers, four-character codes and
 * other ASCII text, big- and little-endian integers. Plain `Uint8Array` indexing, no `Buffer` or
 * `DataView` needed, so it bundles for a browser. Files are untrusted: what lies past the end of the
 * bytes reads as described at each function.
 */

/** An EBML variable-length integer and how many bytes it took. */
export interface Vint {
  readonly value: number;
  readonly length: number;
}

/**
 * The EBML variable-length integer at `at` (1 to 8 bytes, the length in its first byte's leading zeros),
 * or null when there is none: a first byte of 0, or an integer running past the end. `keepMarker` keeps
 * the length marker bit, as element IDs are written; sizes and lacing sizes drop it.
 *
 * @example
 * readVint(Uint8Array.of(0x1a, 0x45, 0xdf, 0xa3), 0, true); // { value: 0x1a45dfa3, length: 4 }
 * readVint(Uint8Array.of(0x81), 0); // { value: 1, length: 1 }
 */
export function readVint(bytes: Uint8Array, at: number, keepMarker = false): Vint | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + (bytes[at + i] as number);
  return { value, length };
}

/**
 * `length` bytes from `at` as text, one character per byte (code points 0–255); '' when they run past
 * the end, so a cut file never matches a magic number or a four-character code.
 *
 * @example
 * readAscii(bytes, 8, 4) === 'WAVE';
 */
export function readAscii(bytes: Uint8Array, at: number, length: number): string {
  if (at + length > bytes.length) return '';
  // In pieces: spreading a long run into one call passes the engine's argument limit (a file may
  // claim a 1 MB field).
  let text = '';
  for (let from = at; from < at + length; from += 4096) {
    text += String.fromCharCode(...bytes.subarray(from, Math.min(from + 4096, at + length)));
  }
  return text;
}

/**
 * The big-endian unsigned integer of `size` bytes at `at` (up to 8; exact below 2^53). Bytes past the end
 * read as 0.
 *
 * @example
 * readUintBE(Uint8Array.of(0x01, 0x00), 0, 2); // 256
 */
export function readUintBE(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return value;
}

/**
 * The big-endian two's-complement integer of `size` bytes at `at` (0 to 8). Negative values are read from
 * their complement, which stays exact in a double where 2^64 - n would not. Bytes past the end read as 0.
 *
 * @example
 * readIntBE(Uint8Array.of(0xff, 0xff, 0xff, 0xff), 0, 4); // -1
 */
export function readIntBE(bytes: Uint8Array, at: number, size: number): number {
  if (size === 0 || (bytes[at] ?? 0) < 0x80) return readUintBE(bytes, at, size);
  let complement = 0;
  for (let i = 0; i < size; i++) complement = complement * 256 + (~(bytes[at + i] ?? 0) & 0xff);
  return -complement - 1;
}

/**
 * The little-endian unsigned 16-bit integer at `at`. Bytes past the end read as 0.
 *
 * @example
 * readUint16LE(Uint8Array.of(0x01, 0x02), 0); // 0x0201
 */
export function readUint16LE(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

/**
 * The little-endian unsigned 32-bit integer at `at`. Bytes past the end read as 0.
 *
 * @example
 * readUint32LE(Uint8Array.of(0xff, 0xff, 0xff, 0xff), 0); // 4294967295
 */
export function readUint32LE(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16)) +
    (bytes[at + 3] ?? 0) * 2 ** 24
  );
}
