/**
 * Hand-built ISO BMFF boxes for the tables of the M4A timing reader: only the boxes and fields it reads
 * (mvhd, trak/mdia/mdhd and hdlr, edts/elst, udta/meta/ilst), each with the version the row asks for.
 */

const text = (value: string): number[] => [...value].map((c) => c.charCodeAt(0));
const be = (value: number, size: number): number[] => {
  const out: number[] = [];
  for (let i = size - 1; i >= 0; i--) out.push(Math.floor(value / 2 ** (8 * i)) & 0xff);
  return out;
};
/** Two's complement for the negative media time of an empty edit (bytewise: 2^64 - 1 is no exact double). */
const signedBe = (value: number, size: number): number[] =>
  value < 0 ? be(-value - 1, size).map((byte) => ~byte & 0xff) : be(value, size);

export function box(type: string, ...body: number[][]): number[] {
  const flat = body.flat();
  return [...be(8 + flat.length, 4), ...text(type), ...flat];
}

/** mvhd or mdhd: version 1 has 64-bit times (creation, modification, duration). */
export function timeHeader(type: 'mvhd' | 'mdhd', scale: number, duration: number, version: 0 | 1 = 0) {
  const wide = version === 1 ? 8 : 4;
  return box(type, [version, 0, 0, 0], be(0, wide), be(0, wide), be(scale, 4), be(duration, wide), be(0, 4));
}

export const hdlr = (handler: 'soun' | 'vide') =>
  box('hdlr', [0, 0, 0, 0], be(0, 4), text(handler), be(0, 12), [0]);

export interface Edit {
  readonly segmentDuration: number;
  readonly mediaTime: number;
}

export function elst(edits: readonly Edit[], version: 0 | 1 = 0): number[] {
  const wide = version === 1 ? 8 : 4;
  const entries = edits.map((edit) => [
    ...be(edit.segmentDuration, wide),
    ...signedBe(edit.mediaTime, wide),
    ...[0, 1, 0, 0],
  ]);
  return box('elst', [version, 0, 0, 0], be(edits.length, 4), ...entries);
}

/** A track: its handler, its media header, and an edit list unless `edits` is undefined. */
export function trak(
  handler: 'soun' | 'vide',
  media: { scale: number; duration: number; version?: 0 | 1 },
  edits?: readonly Edit[],
  elstVersion: 0 | 1 = 0,
): number[] {
  const mdia = box('mdia', timeHeader('mdhd', media.scale, media.duration, media.version), hdlr(handler));
  return box('trak', edits ? box('edts', elst(edits, elstVersion)) : [], mdia);
}

/** The iTunes freeform item Apple's encoders write: `----` with mean, name and data. */
export function iTunSMPB(value: string): number[] {
  const item = box(
    '----',
    box('mean', [0, 0, 0, 0], text('com.apple.iTunes')),
    box('name', [0, 0, 0, 0], text('iTunSMPB')),
    box('data', [0, 0, 0, 1], [0, 0, 0, 0], text(value)),
  );
  return box(
    'udta',
    box('meta', [0, 0, 0, 0], box('hdlr', be(0, 8), text('mdir'), be(0, 13)), box('ilst', item)),
  );
}

/** An M4A file: ftyp, a small mdat, then moov with mvhd and the given children. */
export function m4a(movieScale: number, ...children: number[][]): Uint8Array {
  const ftyp = box('ftyp', text('M4A '), be(0, 4), text('M4A isom'));
  return Uint8Array.from([
    ...ftyp,
    ...box('mdat', be(0, 16)),
    ...box('moov', timeHeader('mvhd', movieScale, 0), ...children),
  ]);
}
