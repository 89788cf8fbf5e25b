import { describe, expect, it } from 'vitest';
import { scanWebm, webmAudioFrames } from './container-webm.js';

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
