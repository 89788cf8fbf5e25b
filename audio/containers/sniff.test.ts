import { describe, expect, it } from 'vitest';
import { seeded } from '../test/signals.js';
import { sniff, sniffContainer } from './sniff.js';

const text = (value: string): number[] => [...value].map((c) => c.charCodeAt(0));
const bytes = (...parts: Array<number[] | Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
const zeros = (n: number) => new Array<number>(n).fill(0);

/** A frame of `length` bytes beginning with the given header bytes. */
const frame = (header: number[], length: number) => bytes(header, zeros(length - header.length));

// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: 417-byte frames.
const mpeg1 = frame([0xff, 0xfb, 0x90, 0x64], 417);
// MPEG-2 Layer III (FFF3), 64 kbit/s, 22.05 kHz: 208-byte frames.
const mpeg2 = frame([0xff, 0xf3, 0x80, 0xc4], 208);
// MPEG-2.5 Layer III (FFE3), 64 kbit/s, 11.025 kHz: 417-byte frames.
const mpeg25 = frame([0xff, 0xe3, 0x80, 0xc4], 417);
/** An ADTS AAC frame of 100 bytes; `second` is FFF1 (MPEG-4) or FFF9 (MPEG-2). */
const adts = (second: 0xf1 | 0xf9) =>
  frame([0xff, second, 0x50, 0x80, (100 >> 3) & 0xff, ((100 & 7) << 5) | 0x1f, 0xfc], 100);
const id3 = (size: number) => bytes(text('ID3'), [4, 0, 0, 0, 0, size >> 7, size & 0x7f], zeros(size));
const oggPage = (packet: number[]) =>
  bytes(text('OggS'), [0, 2], zeros(8), [1, 0, 0, 0], zeros(4), zeros(4), [1, packet.length], packet);
const ebml = (docType: string) =>
  bytes(
    [0x1a, 0x45, 0xdf, 0xa3, 0x80 | (7 + docType.length)],
    [0x42, 0x86, 0x81, 1],
    [0x42, 0x82, 0x80 | docType.length],
    text(docType),
  );
const ftyp = (brand: string) => bytes([0, 0, 0, 20], text('ftyp'), text(brand), zeros(8));
const random = (n: number, seed: number) => {
  const next = seeded(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
};

describe('sniff', () => {
  it.each([
    ['RIFF/WAVE', bytes(text('RIFF'), zeros(4), text('WAVE'), text('fmt ')), 'wav', undefined],
    ['RF64/WAVE', bytes(text('RF64'), zeros(4), text('WAVE')), 'wav', undefined],
    ['FLAC', bytes(text('fLaC'), zeros(40)), 'flac', 'flac'],
    ['FLAC behind an ID3 tag', bytes(id3(20), text('fLaC'), zeros(40)), 'flac', 'flac'],
    ['Ogg Opus', oggPage(text('OpusHead')), 'ogg', 'opus'],
    ['Ogg Vorbis', oggPage([1, ...text('vorbis')]), 'ogg', 'vorbis'],
    ['Ogg FLAC', oggPage([0x7f, ...text('FLAC')]), 'ogg', 'flac'],
    ['raw OpusHead', bytes(text('OpusHead'), zeros(11)), 'opus', 'opus'],
    ['EBML webm', ebml('webm'), 'webm', undefined],
    ['EBML matroska', ebml('matroska'), 'unknown', undefined],
    ['ftyp M4A', ftyp('M4A '), 'm4a', undefined],
    ['ftyp isom', ftyp('isom'), 'm4a', undefined],
    ['ftyp heic (an image)', ftyp('heic'), 'unknown', undefined],
    ['MPEG-1 Layer III (FFFB) frames', bytes(mpeg1, mpeg1, mpeg1), 'mp3', 'mp3'],
    ['MPEG-2 Layer III (FFF3) frames', bytes(mpeg2, mpeg2), 'mp3', 'mp3'],
    ['MPEG-2.5 Layer III (FFE3) frames', bytes(mpeg25, mpeg25), 'mp3', 'mp3'],
    ['ID3 then MP3 frames', bytes(id3(100), mpeg1, mpeg1), 'mp3', 'mp3'],
    ['ID3, padding, then MP3 frames', bytes(id3(100), zeros(33), mpeg1, mpeg1), 'mp3', 'mp3'],
    ['ADTS AAC (FFF1)', bytes(adts(0xf1), adts(0xf1)), 'aac', 'aac'],
    ['ADTS AAC (FFF9)', bytes(adts(0xf9), adts(0xf9)), 'aac', 'aac'],
    ['ADTS behind an ID3 tag', bytes(id3(10), adts(0xf1), adts(0xf1)), 'aac', 'aac'],
    ['one MPEG sync word in garbage', bytes([0xff, 0xfb, 0x90, 0x64], random(1000, 3)), 'unknown', undefined],
    ['an ID3 tag alone', id3(50), 'unknown', undefined],
    ['zero bytes', new Uint8Array(0), 'unknown', undefined],
    ['random bytes', random(4096, 1), 'unknown', undefined],
    ['text', bytes(text('hello, this is not audio at all')), 'unknown', undefined],
    ['a truncated Ogg page', bytes(text('OggS'), [0, 2]), 'unknown', undefined],
  ])('%s → %s', (_name, input, container, codec) => {
    const sniffed = sniff(input);
    expect(sniffed.container).toBe(container);
    expect(sniffed.codec).toBe(codec);
    expect(sniffed.detail.length).toBeGreaterThan(0);
    expect(sniffContainer(input)).toBe(container);
  });

  it('names an EBML file whose DocType claims 1 MiB as not WebM, without reading it whole', () => {
    const docType = new Uint8Array(1 << 20).fill(0x78);
    const field = bytes([0x42, 0x82, 0x10, 0x10, 0x00, 0x00], docType);
    const size = field.length;
    const header = [0x1a, 0x45, 0xdf, 0xa3, 0x10, (size >> 16) & 0xff, (size >> 8) & 0xff, size & 0xff];
    const sniffed = sniff(bytes(header, field));
    expect([sniffed.container, sniffed.detail]).toEqual([
      'unknown',
      `an EBML file of DocType "${'x'.repeat(64)}" (not WebM)`,
    ]);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('random bytes (seed %i) are unknown', (seed) => {
    expect(sniffContainer(random(2048, seed))).toBe('unknown');
  });
});
