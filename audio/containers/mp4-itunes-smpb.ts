import { readAscii } from './bytes.js';
import { type Box, child, children } from './mp4-boxes.js';

/** The text of an iTunes freeform item (`----` with `mean`, `name` and `data`) named `wanted`. */
function freeformText(bytes: Uint8Array, ilst: Box, wanted: string): string | undefined {
  for (const item of children(bytes, ilst.body, ilst.end)) {
    if (item.type !== '----') continue;
    // name: version and flags (4), then the name; data: type (4) and locale (4), then the value.
    const name = child(bytes, item, 'name');
    const data = child(bytes, item, 'data');
    if (name && data && readAscii(bytes, name.body + 4, name.end - name.body - 4) === wanted) {
      return readAscii(bytes, data.body + 8, data.end - data.body - 8);
    }
  }
  return undefined;
}

/**
 * The audio's length in samples from the `iTunSMPB` item Apple's encoders write (moov/udta/meta/ilst):
 * hexadecimal fields, the second to fourth being the priming, the padding and the original sample count.
 * Undefined when the file has no such item or it holds no count.
 *
 * @example
 * itunesSampleCount(bytes); // 2646000 for " 00000000 00000840 000001CA 00000000002860F0 …"
 */
export function itunesSampleCount(bytes: Uint8Array): number | undefined {
  const moov = children(bytes, 0, bytes.length).find((box) => box.type === 'moov');
  const meta = child(bytes, child(bytes, moov, 'udta'), 'meta');
  // meta is a full box: version and flags (4) come before its children.
  const ilst = meta && children(bytes, meta.body + 4, meta.end).find((box) => box.type === 'ilst');
  const text = ilst && freeformText(bytes, ilst, 'iTunSMPB');
  const samples = Number.parseInt(text?.trim().split(/\s+/)[3] ?? '', 16);
  return Number.isFinite(samples) && samples > 0 ? samples : undefined;
}
