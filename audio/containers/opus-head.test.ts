import { describe, expect, it } from 'vitest';
import { readOpusHead } from './opus-head.js';

/** An OpusHead packet (RFC 7845 §5.1): magic, version, channels, pre-skip, input rate, gain, family, table. */
function head(channels: number, preSkip: number, family: number, table: number[] = []): Uint8Array {
  const bytes = new Uint8Array(19 + table.length);
  bytes.set([...'OpusHead'].map((c) => c.charCodeAt(0)));
  const view = new DataView(bytes.buffer);
  bytes[8] = 1;
  bytes[9] = channels;
  view.setUint16(10, preSkip, true);
  view.setUint32(12, 48000, true);
  bytes[18] = family;
  bytes.set(table, 19);
  return bytes;
}

describe('readOpusHead', () => {
  it.each([
    [
      'mono, family 0',
      head(1, 312, 0),
      { channels: 1, preSkip: 312, streamCount: 1, coupledStreamCount: 0, channelMappingTable: [0] },
    ],
    [
      'stereo, family 0',
      head(2, 3840, 0),
      { channels: 2, preSkip: 3840, streamCount: 1, coupledStreamCount: 1, channelMappingTable: [0, 1] },
    ],
    [
      '5.1, family 1',
      head(6, 312, 1, [4, 2, 0, 4, 1, 2, 3, 5]),
      {
        channels: 6,
        preSkip: 312,
        streamCount: 4,
        coupledStreamCount: 2,
        channelMappingTable: [0, 4, 1, 2, 3, 5],
      },
    ],
  ])('reads %s', (_name, packet, setup) => {
    expect(readOpusHead(packet)).toEqual(setup);
  });

  it.each([
    ['a missing CodecPrivate', undefined, /without an OpusHead/],
    ['another magic', new Uint8Array(19).fill(0x41), /without an OpusHead/],
    ['a packet cut at 12 bytes', head(1, 312, 0).subarray(0, 12), /without an OpusHead/],
    ['version 16', Object.assign(head(1, 0, 0), { 8: 16 }), /unsupported version 16/],
    ['three channels in family 0', head(3, 0, 0), /3 channels in mapping family 0/],
    ['a family-1 head without its table', head(6, 0, 1), /truncated OpusHead channel mapping/],
  ])('refuses %s', (_name, packet, reason) => {
    expect(readOpusHead(packet)).toMatch(reason);
  });
});
