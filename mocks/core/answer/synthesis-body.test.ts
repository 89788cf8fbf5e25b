import { describe, expect, it } from 'vitest';
import type { SynthesisStream } from '../../../audio/types.js';
import type { ChunkSource } from './answer.js';
import { completeChunks } from './synthesis-body.js';

/** A synthesis of `count` chunks of 10 bytes each, that says whether its generator was closed. */
function fakeSynthesis(format: 'wav' | 'mp3', count: number) {
  const seen = { made: 0, closed: false };
  const synthesis: SynthesisStream = {
    format,
    mediaType: 'audio/x-test',
    sampleRate: 24_000,
    channels: 1,
    bitDepth: 16,
    durationSeconds: count / 10,
    byteLength: count * 10,
    *chunks() {
      try {
        for (let i = 0; i < count; i++) {
          seen.made += 1;
          yield new Uint8Array(10).fill(i);
        }
      } finally {
        seen.closed = true;
      }
    },
  };
  return { synthesis, seen };
}

/** Pulls a source to its end: how many bytes and chunks it gave. */
async function drain(source: ChunkSource): Promise<{ bytes: number; chunks: number }> {
  let bytes = 0;
  let chunks = 0;
  for (;;) {
    const chunk = await source.pull();
    if (chunk === undefined) return { bytes, chunks };
    bytes += chunk.byteLength;
    chunks += 1;
  }
}

describe('completeChunks: the chunks of a complete answer', () => {
  it.each([
    ['wav', 120, 'every 50 chunks', 2],
    ['mp3', 7, 'after every chunk', 7],
  ] as const)(
    '%s: every chunk once, unpaced, with a zero-delay yield %s',
    async (format, count, _every, yields) => {
      const { synthesis } = fakeSynthesis(format, count);
      const sleeps: number[] = [];
      const source = completeChunks(synthesis, count * 10, async (ms) => void sleeps.push(ms));
      expect(await drain(source)).toEqual({ bytes: count * 10, chunks: count });
      expect(sleeps).toEqual(Array(yields).fill(0));
    },
  );

  it('renders only what is pulled, and closes the synthesis when the reader goes away', async () => {
    const { synthesis, seen } = fakeSynthesis('wav', 100);
    const source = completeChunks(synthesis, 1000, async () => {});
    await source.pull();
    await source.pull();
    source.cancel();
    expect(seen).toEqual({ made: 2, closed: true });
  });

  it.each([
    ['more', 995, 'over 995 bytes rendered, 995 announced'],
    ['fewer', 1010, '1000 bytes rendered, 1010 announced'],
  ])(
    'a body of %s bytes than announced errors before it contradicts its length',
    async (_name, announced, message) => {
      const { synthesis, seen } = fakeSynthesis('wav', 100);
      const source = completeChunks(synthesis, announced, async () => {});
      let sent = 0;
      const body = async () => {
        for (let chunk = await source.pull(); chunk; chunk = await source.pull()) sent += chunk.byteLength;
      };
      await expect(body()).rejects.toThrow(message);
      expect(sent).toBeLessThanOrEqual(announced);
      expect(seen.closed).toBe(true);
    },
  );
});
