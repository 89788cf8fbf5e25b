import { describe, expect, it } from 'vitest';
import { scanWebm, webmAudioFrames } from './webm.js';

const text = (value: string): number[] => [...value].map((c) => c.charCodeAt(0));
const unknownSize = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
/** An EBML element with an 8-byte size, or the "unknown" size live writers use. */
function element(id: number[], body: number[], unknown = false): number[] {
  const size = unknown
    ? unknownSize
    : [
        0x01,
        0,
        0,
        0,
        (body.length >>> 24) & 0xff,
        (body.length >>> 16) & 0xff,
        (body.length >>> 8) & 0xff,
        body.length & 0xff,
      ];
  return [...id, ...size, ...body];
}
const header = element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x82], text('webm')));
const info = element([0x15, 0x49, 0xa9, 0x66], element([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]));
const track = (number: number, type: number, codec: string, codecPrivate?: number[]) =>
  element(
    [0xae],
    [
      ...element([0xd7], [number]),
      ...element([0x83], [type]),
      ...element([0x86], text(codec)),
      ...(codecPrivate ? element([0x63, 0xa2], codecPrivate) : []),
    ],
  );
const tracks = (...entries: number[][]) => element([0x16, 0x54, 0xae, 0x6b], entries.flat());
const block = (trackNumber: number, relative: number) =>
  element([0xa3], [0x80 | trackNumber, (relative >> 8) & 0xff, relative & 0xff, 0x80, 1, 2, 3, 4]);
/** A cluster at `time` ms with a block every 20 ms from `from` to `to` (relative, ms). */
function cluster(time: number, trackNumber: number, unknown: boolean, from = 0, to = 980): number[] {
  const blocks: number[] = [];
  for (let relative = from; relative <= to; relative += 20) blocks.push(...block(trackNumber, relative));
  return element(
    [0x1f, 0x43, 0xb6, 0x75],
    [...element([0xe7], [(time >> 8) & 0xff, time & 0xff]), ...blocks],
    unknown,
  );
}
const segment = (children: number[], unknown: boolean) =>
  element([0x18, 0x53, 0x80, 0x67], children, unknown);
const webm = (...parts: number[][]) => Uint8Array.from([...header, ...parts.flat()]);

describe('scanWebm', () => {
  it.each([
    ['known sizes', false],
    ['unknown sizes (live, MediaRecorder)', true],
  ])('reads the duration from block timestamps with %s', (_name, unknown) => {
    const bytes = webm(
      segment(
        [...info, ...tracks(track(1, 2, 'A_OPUS')), ...cluster(0, 1, unknown), ...cluster(1000, 1, unknown)],
        unknown,
      ),
    );
    expect(scanWebm(bytes)).toEqual({ seconds: 2, audioBlocks: 100, audioCodecs: ['A_OPUS'] });
  });

  it('reads negative relative timestamps', () => {
    const bytes = webm(
      segment([...info, ...tracks(track(1, 2, 'A_OPUS')), ...cluster(1000, 1, false, -1000, -20)], false),
    );
    expect(scanWebm(bytes).seconds).toBe(1);
  });

  it('ignores video blocks and reports no audio blocks for a video-only file', () => {
    const bytes = webm(segment([...info, ...tracks(track(1, 1, 'V_VP8')), ...cluster(0, 1, false)], false));
    expect(scanWebm(bytes)).toEqual({ seconds: 0, audioBlocks: 0, audioCodecs: [] });
  });

  it('counts only the audio track of a file with audio and video', () => {
    const bytes = webm(
      segment(
        [
          ...info,
          ...tracks(track(1, 1, 'V_VP8'), track(2, 2, 'A_VORBIS')),
          ...cluster(0, 1, false, 0, 1980),
          ...cluster(2000, 2, false, 0, 480),
        ],
        false,
      ),
    );
    expect(scanWebm(bytes)).toMatchObject({ audioBlocks: 25, audioCodecs: ['A_VORBIS'], seconds: 0.5 });
  });

  it('reads what is left of a truncated file', () => {
    const whole = webm(
      segment(
        [...info, ...tracks(track(1, 2, 'A_OPUS')), ...cluster(0, 1, true), ...cluster(1000, 1, true)],
        true,
      ),
    );
    const scan = scanWebm(whole.subarray(0, whole.length - 25 * 17));
    expect(scan.seconds).toBeGreaterThan(1);
    expect(scan.seconds).toBeLessThan(2);
  });
});

describe('scanWebm: the real length of Opus audio', () => {
  /** An OpusHead packet with the given pre-skip (RFC 7845 §5.1). */
  const opusHead = (preSkip: number) => [
    ...text('OpusHead'),
    1,
    1,
    preSkip & 0xff,
    preSkip >> 8,
    ...[0x80, 0xbb, 0, 0],
    0,
    0,
    0,
  ];
  const be = (value: number, size: number) =>
    Array.from({ length: size }, (_, i) => Math.floor(value / 2 ** (8 * (size - 1 - i))) & 0xff);
  const opusTrack = (preSkip: number | undefined, codecDelayNs = 0) =>
    element(
      [0xae],
      [
        ...element([0xd7], [1]),
        ...element([0x83], [2]),
        ...element([0x86], text('A_OPUS')),
        ...(preSkip === undefined ? [] : element([0x63, 0xa2], opusHead(preSkip))),
        ...(codecDelayNs ? element([0x56, 0xaa], be(codecDelayNs, 4)) : []),
      ],
    );
  /** A block of one packet: TOC 0x01 is SILK 10 ms, two frames: 960 samples (20 ms). */
  const packetBody = (relative: number) => [0x81, (relative >> 8) & 0xff, relative & 0xff, 0x00, 0x01, 0, 0];
  /** `packets` packets of 20 ms in clusters of 50, the last in a BlockGroup with DiscardPadding. */
  function opusClusters(packets: number, discardNs: number): number[] {
    const out: number[] = [];
    for (let first = 0; first < packets; first += 50) {
      const blocks: number[] = [];
      for (let index = first; index < Math.min(packets, first + 50); index++) {
        const body = packetBody((index - first) * 20);
        const last = index === packets - 1 && discardNs > 0;
        blocks.push(
          ...(last
            ? element([0xa0], [...element([0xa1], body), ...element([0x75, 0xa2], be(discardNs, 4))])
            : element([0xa3], body)),
        );
      }
      const time = first * 20;
      out.push(...element([0x1f, 0x43, 0xb6, 0x75], [...element([0xe7], be(time, 4)), ...blocks]));
    }
    return out;
  }
  const ns = (samples: number) => (samples * 1e9) / 48000;

  // What ffmpeg writes: 312 samples of pre-skip, the end padded to a whole 20 ms packet.
  it.each([
    ['60.000 s (3001 packets, 648 samples discarded)', 312, 3001, 648, 60],
    ['60.05 s (3003 packets, 168 discarded)', 312, 3003, 168, 60.05],
    ['3.000 s (151 packets, 648 discarded)', 312, 151, 648, 3],
    ['2.95 s (148 packets, 168 discarded)', 312, 148, 168, 2.95],
    ['no DiscardPadding: the packets less the pre-skip', 312, 151, 0, 3.0135],
    ['no pre-skip in the OpusHead', 0, 150, 0, 3],
  ])('%s', (_name, preSkip, packets, discard, seconds) => {
    const bytes = webm(
      segment([...info, ...tracks(opusTrack(preSkip)), ...opusClusters(packets, ns(discard))], false),
    );
    expect(scanWebm(bytes).seconds).toBeCloseTo(seconds, 9);
  });

  it('takes the OpusHead pre-skip over CodecDelay, which ffmpeg 5.1 writes at half for 24 kHz input', () => {
    const bytes = webm(
      segment([...info, ...tracks(opusTrack(312, ns(156))), ...opusClusters(151, ns(648))], false),
    );
    expect(scanWebm(bytes).seconds).toBeCloseTo(3, 9);
  });

  it('falls back to CodecDelay without an OpusHead', () => {
    const bytes = webm(
      segment([...info, ...tracks(opusTrack(undefined, ns(312))), ...opusClusters(151, ns(648))], false),
    );
    expect(scanWebm(bytes).seconds).toBeCloseTo(3, 9);
  });

  it('falls back to the timestamps when a packet is malformed, so that the decoder names the fault', () => {
    const bad = element(
      [0x1f, 0x43, 0xb6, 0x75],
      [...element([0xe7], [0]), ...element([0xa3], [0x81, 0, 0, 0, 0xff, 0])],
    );
    const bytes = webm(segment([...info, ...tracks(opusTrack(312)), ...bad, ...opusClusters(50, 0)], false));
    // Timestamps: the bad block and the first good one both sit at 0 ms; 50 blocks of 20 ms follow.
    expect(scanWebm(bytes).seconds).toBeCloseTo(1, 9);
  });

  it('subtracts CodecDelay and DiscardPadding from the timestamps of other codecs', () => {
    const vorbis = element(
      [0xae],
      [
        ...element([0xd7], [1]),
        ...element([0x83], [2]),
        ...element([0x86], text('A_VORBIS')),
        ...element([0x56, 0xaa], be(10_000_000, 4)),
      ],
    );
    const bytes = webm(segment([...info, ...tracks(vorbis), ...opusClusters(100, 5_000_000)], false));
    expect(scanWebm(bytes).seconds).toBeCloseTo(2 - 0.015, 9);
  });
});

describe('webmAudioFrames', () => {
  /** A SimpleBlock with flags and a payload of its own. */
  const rawBlock = (trackNumber: number, flags: number, payload: number[]) =>
    element([0xa3], [0x80 | trackNumber, 0, 0, flags, ...payload]);
  const clusterOf = (...blocks: number[][]) =>
    element([0x1f, 0x43, 0xb6, 0x75], [...element([0xe7], [0]), ...blocks.flat()]);
  const head = text('OpusHead');

  it('hands over the audio track’s frames in order, with its CodecPrivate, and skips video blocks', () => {
    const bytes = webm(
      segment(
        [
          ...info,
          ...tracks(track(1, 1, 'V_VP8'), track(2, 2, 'A_OPUS', head)),
          ...clusterOf(rawBlock(2, 0x80, [1, 1]), rawBlock(1, 0x80, [9]), rawBlock(2, 0x80, [2])),
        ],
        false,
      ),
    );
    const audio = webmAudioFrames(bytes);
    if (typeof audio === 'string') throw new Error(audio);
    expect(audio.codec).toBe('A_OPUS');
    expect(Array.from(audio.codecPrivate ?? [])).toEqual(head);
    expect(audio.frames.map((frame) => Array.from(frame))).toEqual([[1, 1], [2]]);
  });

  it('splits a laced block (Xiph lacing, flags bits 01) into its frames', () => {
    const bytes = webm(
      segment([...tracks(track(1, 2, 'A_OPUS')), ...clusterOf(rawBlock(1, 0x82, [1, 2, 7, 7, 8]))], false),
    );
    const audio = webmAudioFrames(bytes);
    expect(typeof audio === 'string' ? audio : audio.frames.map((frame) => Array.from(frame))).toEqual([
      [7, 7],
      [8],
    ]);
  });

  it('leaves out a block cut off by the end of the file', () => {
    const bytes = webm(
      segment(
        [...tracks(track(1, 2, 'A_OPUS')), ...clusterOf(block(1, 0), block(1, 20), block(1, 40))],
        true,
      ),
    );
    const audio = webmAudioFrames(bytes.subarray(0, bytes.length - 3));
    expect(typeof audio === 'string' ? audio : audio.frames.length).toBe(2);
  });

  it.each([
    [
      'no audio track',
      [...tracks(track(1, 1, 'V_VP8')), ...clusterOf(rawBlock(1, 0x80, [1]))],
      /no audio track/,
    ],
    [
      'a laced block whose sizes run past its payload',
      [...tracks(track(1, 2, 'A_OPUS')), ...clusterOf(rawBlock(1, 0x82, [1, 200, 7]))],
      /malformed lacing header/,
    ],
  ])('gives a reason for %s', (_name, children, reason) => {
    expect(webmAudioFrames(webm(segment(children, false)))).toMatch(reason);
  });
});
