import { describe, expect, it } from 'vitest';
import { createMockService } from '../mocks/index.js';
import { wav } from '../proxy/test/upstreams.js';
import { AudioWatch } from './audio-watch.js';

function feed(watch: AudioWatch, body: Uint8Array, size: number) {
  for (let at = 0; at < body.length; at += size) watch.push(body.subarray(at, at + size));
  return watch.finish();
}

async function mockAudio(format: string): Promise<Uint8Array> {
  const service = createMockService();
  const res = await service.fetch(
    new Request('http://mock/v1/text-to-speech', {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'content-type': 'application/json' },
      body: JSON.stringify({ generate_text: 'A short sentence to hear.', audio_format: format }),
    }),
  );
  return new Uint8Array(await res.arrayBuffer());
}

describe('AudioWatch', () => {
  it('passes WAV, MP3 and PCM from the mock whatever the chunking, and reads their duration', async () => {
    for (const [format, kind] of [
      ['wav', 'wav'],
      ['mp3', 'mp3'],
      ['pcm', 'pcm'],
    ] as const) {
      const body = await mockAudio(format);
      for (const size of [1, 3, 1000, body.length]) {
        const summary = feed(
          new AudioWatch(kind, { streamed: false, pcm: { sampleRate: 24000, channels: 1, bitDepth: 16 } }),
          body,
          size,
        );
        expect(summary.problems, `${format} in chunks of ${size}`).toEqual([]);
        expect(summary.seconds).toBeGreaterThan(0.5);
      }
    }
  });

  it('finds WAV sizes that disagree with the bytes, and odd data', () => {
    expect(
      feed(new AudioWatch('wav', { streamed: false, pcm: undefined }), wav(100, { riff: 999 }), 7).problems,
    ).toEqual(['RIFF size 999 does not match the body: 244 bytes received, so 236 was expected']);
    expect(
      feed(new AudioWatch('wav', { streamed: false, pcm: undefined }), wav(100, { data: 400 }), 50).problems,
    ).toEqual(['the data chunk claims 400 bytes, 200 were received']);
    const streamed = new AudioWatch('wav', { streamed: true, pcm: undefined });
    expect(feed(streamed, wav(100, { riff: 0xffffffff, data: 0xffffffff }), 64).problems).toEqual([]);
    expect(
      feed(
        new AudioWatch('wav', { streamed: false, pcm: undefined }),
        Buffer.from('ID3 not a wave at all'),
        4,
      ).problems[0],
    ).toMatch(/not RIFF\/WAVE/);
  });

  it('finds garbage among MPEG frames and a cut last frame', async () => {
    const mp3 = Buffer.from(await mockAudio('mp3'));
    const garbage = Buffer.concat([mp3.subarray(0, 2000), Buffer.alloc(300, 0x55), mp3.subarray(2000)]);
    expect(
      feed(new AudioWatch('mp3', { streamed: false, pcm: undefined }), garbage, 777).problems[0],
    ).toMatch(/^no MPEG audio frame at byte \d+/);
    expect(
      feed(new AudioWatch('mp3', { streamed: false, pcm: undefined }), mp3.subarray(0, mp3.length - 10), 777)
        .problems[0],
    ).toMatch(/last MPEG frame is cut/);
    expect(
      feed(new AudioWatch('mp3', { streamed: false, pcm: undefined }), Buffer.alloc(500, 0x41), 100)
        .problems[0],
    ).toMatch(/no MPEG audio frame at byte 0/);
  });

  it('finds a PCM body that is not whole frames, or that carries a container header', () => {
    const layout = { sampleRate: 24000, channels: 1, bitDepth: 16 };
    expect(
      feed(new AudioWatch('pcm', { streamed: true, pcm: layout }), Buffer.alloc(101, 3), 10).problems,
    ).toEqual(['PCM length 101 is not a multiple of the frame size 2 (1 channel(s) × 16 bits)']);
    expect(feed(new AudioWatch('pcm', { streamed: true, pcm: layout }), wav(10), 10).problems).toEqual([
      'a PCM body starts with a RIFF header',
    ]);
  });
});
