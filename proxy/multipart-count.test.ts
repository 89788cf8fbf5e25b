import { describe, expect, it } from 'vitest';
import { MultipartCounter } from './multipart-count.js';

const form = (file: Uint8Array) =>
  Buffer.concat([
    Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="scene"\r\n\r\naudio\r\n'),
    Buffer.from(
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a b.wav"\r\nContent-Type: audio/wav\r\n\r\n',
    ),
    file,
    Buffer.from('\r\n--b0undary--\r\n'),
  ]);

describe('MultipartCounter', () => {
  it('counts the file bytes whatever the chunking, even with CRLF and boundary-like bytes inside', () => {
    const file = Buffer.concat([Buffer.from('\r\n--b0undar'), Buffer.alloc(5000, 7), Buffer.from('\r\n-')]);
    const body = form(file);
    for (const size of [1, 2, 7, 13, 64, 4096, body.length]) {
      const counter = new MultipartCounter('b0undary');
      for (let at = 0; at < body.length; at += size) counter.push(body.subarray(at, at + size));
      const result = counter.result();
      expect(result.error).toBeUndefined();
      expect(result.parts.map((p) => [p.name, p.filename, p.bytes])).toEqual([
        ['scene', undefined, 5],
        ['file', 'a b.wav', file.length],
      ]);
    }
  });

  it('reports a form that never closes, and garbage after a boundary, without throwing', () => {
    const open = new MultipartCounter('b0undary');
    open.push(form(Buffer.alloc(10)).subarray(0, 120));
    expect(open.result()).toMatchObject({
      complete: false,
      error: 'the form ends before its closing boundary',
    });
    const bad = new MultipartCounter('b0undary');
    bad.push(Buffer.from('--b0undaryXYZ\r\n\r\nhello'));
    expect(bad.result().error).toBe('a boundary is not followed by a line break');
  });
});
