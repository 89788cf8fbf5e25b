import { describe, expect, it } from 'vitest';
import { readCommittedFixture } from '../../fixtures/committed.js';
import { analyze } from '../analysis/analyze.js';

/**
 * Clips of exactly 3.000 s and 60.000 s made by real encoders (ffmpeg: LAME, its AAC, libopus). Their
 * frames or headers hold more than that (priming before the audio, padding after it); the files record
 * how much, and the analysis must judge what is left, as ffmpeg decodes it (spec §4.2: 3.0 s and 60.0 s
 * pass).
 */
describe('compressed clips of exactly 3 s and 60 s are accepted at their real length', () => {
  it.each([
    // id, container, codec, real seconds, what the frames or header alone say (ffprobe's format duration)
    ['speech-3s-mp3', 'mp3', 'mp3', 3, 3.096],
    ['speech-3s-m4a', 'm4a', 'aac', 3, 3.064],
    ['speech-3s-opus-ogg', 'ogg', 'opus', 3, 3.0065],
    ['speech-3s-opus-webm', 'webm', 'opus', 3, 3.008],
    ['speech-60s-mp3', 'mp3', 'mp3', 60, 60.192],
  ])('%s (%s, %s): %s s, not the %s s of its frames', async (id, container, codec, seconds) => {
    const analysis = await analyze(await readCommittedFixture(id));
    expect(analysis).toMatchObject({ ok: true, container, codec });
    expect(analysis.durationSeconds).toBeCloseTo(seconds, 6);
    if (analysis.ok && analysis.decoded) expect(analysis.speechSeconds).toBeGreaterThan(2);
  });
});

const ascii = (bytes: Uint8Array, text: string) => Buffer.from(bytes).indexOf(text, 0, 'latin1');

/** Rewrites the LAME tag's 12-bit delay and padding (ffmpeg's bit-exact tag names its encoder "Lavf"). */
function lamePadding(bytes: Uint8Array, padding: number): void {
  const at = ascii(bytes, 'Lavf') + 21;
  const delay = ((bytes[at] as number) << 4) | ((bytes[at + 1] as number) >> 4);
  bytes.set([delay >> 4, ((delay & 0x0f) << 4) | (padding >> 8), padding & 0xff], at);
}

/** Changes what the file records, not its audio: the analysis must follow the record. */
async function patched(id: string, patch: (bytes: Uint8Array, view: DataView) => void): Promise<Uint8Array> {
  const bytes = (await readCommittedFixture(id)).slice();
  patch(bytes, new DataView(bytes.buffer));
  return bytes;
}

describe('what the file records decides: 50 ms less than 3 s or more than 60 s is refused', () => {
  it.each([
    [
      'MP3, 800 more samples of padding (16 kHz)',
      () => patched('speech-3s-mp3', (bytes) => lamePadding(bytes, 960 + 800)),
      'too-short',
      2.95,
    ],
    [
      'MP3, 400 fewer samples of padding (8 kHz)',
      () => patched('speech-60s-mp3', (bytes) => lamePadding(bytes, 960 - 400)),
      'too-long',
      60.05,
    ],
    [
      'M4A, an edit list of 2950 ms',
      () => patched('speech-3s-m4a', (bytes, view) => view.setUint32(ascii(bytes, 'elst') + 12, 2950)),
      'too-short',
      2.95,
    ],
    [
      'Ogg Opus, a last granule position 2400 samples earlier',
      () =>
        patched('speech-3s-opus-ogg', (bytes, view) => {
          const last = Buffer.from(bytes).lastIndexOf('OggS', undefined, 'latin1');
          view.setBigInt64(last + 6, view.getBigInt64(last + 6, true) - 2400n, true);
        }),
      'too-short',
      2.95,
    ],
    [
      'WebM Opus, a DiscardPadding 50 ms longer',
      () =>
        patched('speech-3s-opus-webm', (bytes, view) => {
          const at = Buffer.from(bytes).indexOf(Uint8Array.of(0x75, 0xa2, 0x84)) + 3;
          view.setUint32(at, view.getUint32(at) + 50_000_000);
        }),
      'too-short',
      2.95,
    ],
  ])('%s → %s', async (_name, make, verdict, seconds) => {
    const analysis = await analyze(await make());
    expect(analysis).toMatchObject({ ok: false, verdict });
    expect(analysis.durationSeconds).toBeCloseTo(seconds, 6);
    if (!analysis.ok) expect(analysis.reason).toContain(`${seconds.toFixed(2)} s long`);
  });
});
