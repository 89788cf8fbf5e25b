import { describe, expect, it } from 'vitest';
import { checkPcm, checkWav, claimedAudio } from '../../judge/audio.js';
import { checkMp3 } from '../../judge/audio-watch.js';
import { judgeAudio } from './decode-audio.js';
import { silentWavHeader } from './multipart.js';

function wav(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44 + dataBytes);
  out.set(silentWavHeader(44 + dataBytes));
  return out;
}

describe('audio checks', () => {
  it.each([
    ['audio/wav', 'wav'],
    ['audio/x-wav; charset=binary', 'wav'],
    ['audio/mpeg', 'mp3'],
    ['audio/L16;rate=24000', 'pcm'],
    ['audio/pcm', 'pcm'],
    ['application/octet-stream', 'other'],
    [null, 'other'],
  ] as const)('classifies %s as %s', (ct, kind) => {
    expect(claimedAudio(ct)).toBe(kind);
  });

  it('accepts a consistent WAV and decodes its duration', async () => {
    expect(checkWav(wav(48_000 * 4), false)).toEqual([]);
    const v = await judgeAudio(wav(48_000 * 4), 'audio/wav', { streamed: false, pcm: null });
    expect(v.problems).toEqual([]);
    expect(v.durationSeconds).toBeCloseTo(1, 2);
  });

  it.each([
    ['a zeroed header', (b: Uint8Array) => b.fill(0, 0, 12), /not RIFF/],
    ['a truncated body', (b: Uint8Array) => b.subarray(0, b.length - 2), /RIFF size|data chunk claims/],
    ['a half frame', (b: Uint8Array) => b.subarray(0, b.length - 1), /RIFF size|block align|claims/],
  ])('flags a WAV with %s', (_, spoil, pattern) => {
    const problems = checkWav(spoil(wav(4800)), false);
    expect(
      problems.some((p) => pattern.test(p)),
      problems.join('; '),
    ).toBe(true);
  });

  it("reads the head with the judge's one WAV reader: a byte rate that disagrees with the sample rate", () => {
    const b = wav(4800);
    new DataView(b.buffer).setUint32(28, 44_100 * 2, true);
    expect(checkWav(b, false)).toEqual([
      expect.stringMatching(/byte rate is 88200; sample rate 48000 Hz × block align 4/),
    ]);
  });

  it('allows placeholder sizes only in a stream', () => {
    const b = wav(4800);
    new DataView(b.buffer).setUint32(4, 0xffffffff, true);
    new DataView(b.buffer).setUint32(40, 0xffffffff, true);
    expect(checkWav(b, true)).toEqual([]);
    expect(checkWav(b, false)).not.toEqual([]);
  });

  it('walks MP3 frames to the last byte, after an ID3v2 tag and before an ID3v1 tag', () => {
    // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes a frame.
    const frame = new Uint8Array(417);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    const id3v2 = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]);
    expect(checkMp3(join(frame, frame))).toEqual([]);
    expect(checkMp3(join(id3v2, frame, id3v1))).toEqual([]);
    // A body cut inside its last frame: the frame sync at the start is not enough.
    expect(checkMp3(join(frame, frame.subarray(0, 200)))).toEqual([
      'the last MPEG frame is cut: 217 bytes missing',
    ]);
    expect(checkMp3(join(frame, Uint8Array.from([0x52, 0x49, 0x46, 0x46])))[0]).toMatch(
      /no MPEG audio frame at byte 417/,
    );
    expect(checkMp3(Uint8Array.from([0x52, 0x49, 0x46, 0x46]))).not.toEqual([]);
  });

  it('checks PCM length against the block align of its headers', () => {
    const layout = { sampleRate: 24_000, channels: 1, bitDepth: 16 };
    expect(checkPcm(new Uint8Array(480), layout)).toEqual([]);
    expect(checkPcm(new Uint8Array(481), layout)).not.toEqual([]);
    expect(checkPcm(new Uint8Array(0), layout)).not.toEqual([]);
  });
});
