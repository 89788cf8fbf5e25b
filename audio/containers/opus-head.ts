import { readAscii, readUint16LE } from './bytes.js';

/** What an Opus frame decoder must be told before the first frame (RFC 7845 §5.1, the OpusHead packet). */
export interface OpusSetup {
  readonly channels: number;
  /** Samples at 48 kHz the encoder put before the audio; the decoder drops them. */
  readonly preSkip: number;
  readonly streamCount: number;
  readonly coupledStreamCount: number;
  readonly channelMappingTable: number[];
}

const magic = 'OpusHead';

/**
 * Reads the OpusHead packet that WebM stores as the Opus track's CodecPrivate. Ogg Opus carries the same
 * packet in its first page, but ogg-opus-decoder reads that itself; WebM frames go to a bare frame decoder,
 * which needs the channel layout and pre-skip from us. Returns a reason (a string) for a missing or
 * malformed head.
 *
 * @example
 * const setup = readOpusHead(track.codecPrivate);
 * if (typeof setup !== 'string') new OpusDecoder(setup);
 */
export function readOpusHead(packet: Uint8Array | undefined): OpusSetup | string {
  if (!packet || packet.length < 19 || readAscii(packet, 0, 8) !== magic) {
    return 'has an Opus track without an OpusHead in its CodecPrivate';
  }
  // Versions 0–15 share the layout; a higher major version may not (RFC 7845 §5.1).
  if ((packet[8] as number) > 15) return `has an OpusHead of unsupported version ${packet[8]}`;
  const channels = packet[9] as number;
  const preSkip = readUint16LE(packet, 10);
  const family = packet[18] as number;
  if (family === 0) {
    if (channels < 1 || channels > 2) return `has an OpusHead of ${channels} channels in mapping family 0`;
    return {
      channels,
      preSkip,
      streamCount: 1,
      coupledStreamCount: channels - 1,
      channelMappingTable: channels === 2 ? [0, 1] : [0],
    };
  }
  if (channels < 1 || packet.length < 21 + channels) return 'has a truncated OpusHead channel mapping';
  return {
    channels,
    preSkip,
    streamCount: packet[19] as number,
    coupledStreamCount: packet[20] as number,
    channelMappingTable: Array.from(packet.subarray(21, 21 + channels)),
  };
}
