import { describe, expect, it } from 'vitest';
import { readAscii, readIntBE, readUint16LE, readUint32LE, readUintBE, readVint } from './bytes.js';

describe('readVint', () => {
  it('reads 1- to 8-byte integers, with or without the length marker', () => {
    expect(readVint(Uint8Array.of(0x81), 0)).toEqual({ value: 1, length: 1 });
    expect(readVint(Uint8Array.of(0x40, 0x02), 0)).toEqual({ value: 2, length: 2 });
    expect(readVint(Uint8Array.of(0x1a, 0x45, 0xdf, 0xa3), 0, true)).toEqual({
      value: 0x1a45dfa3,
      length: 4,
    });
    const eight = Uint8Array.of(0x01, 0, 0, 0, 0, 0, 1, 0);
    expect(readVint(eight, 0)).toEqual({ value: 256, length: 8 });
  });

  it('is null for a 0 first byte, past the end, and for an integer cut by the end', () => {
    expect(readVint(Uint8Array.of(0x00, 0x81), 0)).toBeNull();
    expect(readVint(Uint8Array.of(0x81), 1)).toBeNull();
    expect(readVint(Uint8Array.of(0x40), 0)).toBeNull();
  });
});

describe('readAscii', () => {
  it('reads one character per byte, and nothing when the text runs past the end', () => {
    const bytes = new TextEncoder().encode('RIFF....WAVE');
    expect(readAscii(bytes, 8, 4)).toBe('WAVE');
    expect(readAscii(bytes, 10, 4)).toBe('');
    expect(readAscii(Uint8Array.of(0xe9, 0x00), 0, 2)).toBe('\u00e9\u0000');
  });

  it('reads a run far longer than a call may take arguments (a field that claims 4 MiB)', () => {
    const long = new Uint8Array(4 << 20).fill(0x61);
    expect(readAscii(long, 1, long.length - 1)).toBe('a'.repeat(long.length - 1));
  });
});

describe('big-endian integers', () => {
  it('reads unsigned integers up to 8 bytes, bytes past the end as 0', () => {
    expect(readUintBE(Uint8Array.of(0xff, 0xff, 0xff, 0xff), 0, 4)).toBe(4294967295);
    expect(readUintBE(Uint8Array.of(0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 0, 8)).toBe(2 ** 53 - 1);
    expect(readUintBE(Uint8Array.of(0x01), 0, 2)).toBe(256);
  });

  it('reads two’s-complement integers, exactly also for 8 bytes', () => {
    expect(readIntBE(Uint8Array.of(0xff, 0xfe), 0, 2)).toBe(-2);
    expect(readIntBE(Uint8Array.of(0x7f, 0xff), 0, 2)).toBe(32767);
    expect(readIntBE(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), 0, 8)).toBe(-1);
    expect(readIntBE(Uint8Array.of(0x80), 0, 0)).toBe(0);
  });
});

describe('little-endian integers', () => {
  it('reads 16- and 32-bit unsigned integers, bytes past the end as 0', () => {
    expect(readUint16LE(Uint8Array.of(0x01, 0x02), 0)).toBe(0x0201);
    expect(readUint32LE(Uint8Array.of(0xff, 0xff, 0xff, 0xff), 0)).toBe(4294967295);
    expect(readUint32LE(Uint8Array.of(0x44, 0xac), 0)).toBe(44100);
  });
});
