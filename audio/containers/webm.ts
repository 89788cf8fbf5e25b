import { readAscii, readIntBE, readUintBE, readVint } from './bytes.js';
import { readOpusHead } from './opus-head.js';
import { opusPacketSamples } from './opus-packet.js';
import { splitLaced } from './webm-lacing.js';

/** What scanning the clusters of a WebM file found. */
export interface WebmScan {
  /**
   * The audio the first audio track really holds, seconds; 0 without audio blocks. Opus: the samples of
   * its packets less the encoder's priming (the OpusHead pre-skip) and the padding after the end
   * (DiscardPadding), as ffmpeg decodes it. Other codecs: from the first to the end of the last
   * block, by timestamps, less CodecDelay and DiscardPadding.
   */
  readonly seconds: number;
  readonly audioBlocks: number;
  /** CodecID of each audio track, e.g. ['A_OPUS']. */
  readonly audioCodecs: readonly string[];
}

const ids = {
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  codecDelay: 0x56aa,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  blockGroup: 0xa0,
  block: 0xa1,
  simpleBlock: 0xa3,
  discardPadding: 0x75a2,
} as const;

/** Masters whose children we read; their sizes are ignored, so live files with unknown sizes work too. */
const descend = new Set<number>([
  ids.segment,
  ids.info,
  ids.tracks,
  ids.trackEntry,
  ids.cluster,
  ids.blockGroup,
]);
const audioTrackType = 2;

interface Track {
  number: number;
  type: number;
  codec: string;
  /** CodecPrivate: for Opus the OpusHead packet, which the decoder needs (channels, pre-skip). */
  codecPrivate: Uint8Array | undefined;
  /** CodecDelay: nanoseconds of encoder priming at the start that decoders drop; 0 when absent. */
  codecDelay: number;
}

/** A block: its track, its time in TimecodeScale units, and where its (possibly laced) payload lies. */
interface Block {
  readonly track: number;
  readonly time: number;
  readonly start: number;
  readonly end: number;
  /** Lacing bits of the block flags: 0 none, 1 Xiph, 2 fixed-size, 3 EBML. */
  readonly lacing: number;
  /** DiscardPadding of its BlockGroup: nanoseconds at its end that decoders drop (the last block's). */
  discardPadding: number;
}

interface Elements {
  readonly tracks: Track[];
  /** Nanoseconds per timestamp unit (TimecodeScale), 1 ms by default. */
  scale: number;
  readonly blocks: Block[];
}

/** A (Simple)Block: track number, 16-bit signed relative time, flags, then the payload. */
function readBlock(bytes: Uint8Array, body: number, end: number, cluster: number): Block | null {
  const number = readVint(bytes, body);
  const start = number ? body + number.length + 3 : end;
  if (!number || start > end) return null;
  const relative = readIntBE(bytes, body + number.length, 2);
  const lacing = ((bytes[start - 1] as number) >> 1) & 3;
  return { track: number.value, time: cluster + relative, start, end, lacing, discardPadding: 0 };
}

/** One pass over the elements: masters are entered, leaves read or skipped; stops where the bytes end. */
function readElements(bytes: Uint8Array): Elements {
  const found: Elements = { tracks: [], scale: 1_000_000, blocks: [] };
  let cluster = 0;
  let at = 0;
  while (at < bytes.length) {
    const id = readVint(bytes, at, true);
    const size = id && readVint(bytes, at + id.length);
    if (!id || !size) break;
    const body = at + id.length + size.length;
    if (descend.has(id.value)) {
      if (id.value === ids.trackEntry)
        found.tracks.push({ number: 0, type: 0, codec: '', codecPrivate: undefined, codecDelay: 0 });
      at = body;
      continue;
    }
    if (body + size.value > bytes.length) break;
    const track = found.tracks[found.tracks.length - 1];
    const value = () => readUintBE(bytes, body, size.value);
    if (id.value === ids.timecodeScale) found.scale = value();
    else if (id.value === ids.timecode) cluster = value();
    else if (track && id.value === ids.trackNumber) track.number = value();
    else if (track && id.value === ids.trackType) track.type = value();
    else if (track && id.value === ids.codecId) track.codec = readAscii(bytes, body, size.value);
    else if (track && id.value === ids.codecPrivate)
      track.codecPrivate = bytes.subarray(body, body + size.value);
    else if (track && id.value === ids.codecDelay) track.codecDelay = value();
    else if (id.value === ids.simpleBlock || id.value === ids.block) {
      const block = readBlock(bytes, body, body + size.value, cluster);
      if (block) found.blocks.push(block);
    } else if (id.value === ids.discardPadding) {
      // A BlockGroup's DiscardPadding follows its Block, which is therefore the last block read.
      const block = found.blocks[found.blocks.length - 1];
      if (block) block.discardPadding = readIntBE(bytes, body, size.value);
    }
    at = body + size.value;
  }
  return found;
}

/** From the first block to the end of the last one, in TimecodeScale units, by timestamps. */
function spanOf(blocks: readonly Block[]): number {
  let first = Infinity;
  let last = -Infinity;
  let step = 0;
  for (const [index, block] of blocks.entries()) {
    first = Math.min(first, block.time);
    if (block.time > last) {
      // The last block lasts as long as the step before it: Opus and Vorbis frames are evenly spaced.
      step = index > 0 ? block.time - (blocks[index - 1]?.time ?? block.time) : 0;
      last = block.time;
    }
  }
  return last - first + step;
}

const opusRateHz = 48000;
const samplesOf = (nanoseconds: number) => Math.round((nanoseconds * opusRateHz) / 1e9);

/**
 * Samples of all Opus packets less the priming and padding decoders drop, in seconds; undefined when a
 * packet is malformed, so that the timestamps stand in and the decoder, not the scan, names the fault.
 */
function opusSeconds(
  bytes: Uint8Array,
  track: Track,
  blocks: readonly Block[],
  discardNs: number,
): number | undefined {
  let samples = 0;
  for (const block of blocks) {
    const frames = splitLaced(bytes.subarray(block.start, block.end), block.lacing);
    if (!frames) return undefined;
    for (const frame of frames) {
      const held = opusPacketSamples(frame);
      if (held === 0) return undefined;
      samples += held;
    }
  }
  // The OpusHead pre-skip is what Opus decoders drop (ffmpeg's and ours). CodecDelay should say the same,
  // but ffmpeg 5.1 writes it in the encoder's rate: half the pre-skip for 22.05/24 kHz input.
  const head = readOpusHead(track.codecPrivate);
  const preSkip = typeof head === 'string' ? samplesOf(track.codecDelay) : head.preSkip;
  return (samples - preSkip - samplesOf(discardNs)) / opusRateHz;
}

/**
 * Reads the duration of a WebM file from its blocks. Browsers' MediaRecorder writes WebM without a
 * Duration element and with unknown sizes, so the header alone often cannot say how long it is; and the
 * Duration ffmpeg writes includes the encoder's priming and padding, which decoders drop.
 *
 * @example
 * const { seconds, audioCodecs } = scanWebm(bytes); // 7.6, ['A_OPUS']
 */
export function scanWebm(bytes: Uint8Array): WebmScan {
  const { tracks, scale, blocks } = readElements(bytes);
  const audioTracks = tracks.filter((track) => track.type === audioTrackType);
  const audioCodecs = audioTracks.map((track) => track.codec);
  const audio = new Set(audioTracks.map((track) => track.number));
  const audioBlocks = blocks.filter((block) => audio.has(block.track)).length;
  // The first audio track is the one decoded (webmAudioFrames), so it is the one measured.
  const track = audioTracks[0];
  const own = blocks.filter((block) => block.track === track?.number);
  if (!track || own.length === 0) return { seconds: 0, audioBlocks, audioCodecs };
  // Either sign means discarded: positive at the block's end, negative at its start (Matroska spec).
  const discardNs = own.reduce((sum, block) => sum + Math.abs(block.discardPadding), 0);
  const seconds =
    (track.codec === 'A_OPUS' ? opusSeconds(bytes, track, own, discardNs) : undefined) ??
    (spanOf(own) * scale - track.codecDelay - discardNs) / 1e9;
  return { seconds: Math.max(0, seconds), audioBlocks, audioCodecs };
}

/** The frames of a WebM file's first audio track, in file order, ready for a frame decoder. */
export interface WebmAudio {
  readonly codec: string;
  /** The track's CodecPrivate (for Opus: the OpusHead packet); undefined when absent. */
  readonly codecPrivate: Uint8Array | undefined;
  readonly frames: readonly Uint8Array[];
}

/**
 * Collects the frames of the first audio track, splitting laced blocks. Blocks cut off by the end of the
 * file are left out, as {@link scanWebm} leaves them out of the duration. Returns a reason (a string) when
 * there is no audio track or a block's lacing does not fit its payload.
 *
 * @example
 * const audio = webmAudioFrames(bytes);
 * if (typeof audio !== 'string') console.log(audio.codec, audio.frames.length); // 'A_OPUS', 379
 */
export function webmAudioFrames(bytes: Uint8Array): WebmAudio | string {
  const { tracks, blocks } = readElements(bytes);
  const track = tracks.find((candidate) => candidate.type === audioTrackType);
  if (!track) return 'has no audio track';
  const frames: Uint8Array[] = [];
  for (const block of blocks) {
    if (block.track !== track.number) continue;
    const split = splitLaced(bytes.subarray(block.start, block.end), block.lacing);
    if (!split) return `is corrupt: a block at byte ${block.start} has a malformed lacing header`;
    frames.push(...split);
  }
  return { codec: track.codec, codecPrivate: track.codecPrivate, frames };
}
