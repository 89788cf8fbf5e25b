import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultipartScanner } from './scanner.js';

const encoder = new TextEncoder();
const boundary = 'ab-ab';

/** A form of one file part whose bytes are drawn from the boundary's own bytes, CR, LF and dashes. */
const formOf = (file: Uint8Array) => {
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.wav"\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
};

/** File bytes that keep almost matching the delimiter (`\r\n--ab-ab`) without ever matching it whole. */
const nearMisses = fc
  .array(fc.constantFrom(...encoder.encode('\r\n-ab')), { maxLength: 400 })
  .map((bytes) => Uint8Array.from(bytes))
  .filter((bytes) => !new TextDecoder().decode(bytes).includes(`\r\n--${boundary}`));

describe('MultipartScanner', () => {
  it('hands on every file byte, in order, however the body is cut, when the bytes nearly match a boundary', () => {
    fc.assert(
      fc.property(nearMisses, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), (file, sizes) => {
        const body = formOf(file);
        const got: number[] = [];
        const heads: (string | undefined)[] = [];
        const scanner = new MultipartScanner(boundary, {
          part: (head) => heads.push(head?.filename),
          data: (bytes) => got.push(...bytes),
          end: () => {},
        });
        for (let at = 0, i = 0; at < body.length; at += sizes[i++ % sizes.length] as number)
          scanner.push(body.subarray(at, at + (sizes[i % sizes.length] as number)));
        scanner.finish();
        expect(heads).toEqual(['f.wav']);
        expect(Uint8Array.from(got)).toEqual(file);
      }),
      { numRuns: 300, seed: 45 },
    );
  });
});
