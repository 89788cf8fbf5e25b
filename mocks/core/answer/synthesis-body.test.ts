import { describe, expect, it } from 'vitest';
import type { SynthesisStream } from '../../../audio/types.js';
import type { ChunkSource } from './answer.js';
import { FairTurns } from './fair-turns.js';
import { audioChunks, completeChunks } from './synthesis-body.js';

/** A synthesis of `count` chunks of 10 bytes each, that says whether its generator was closed. */
function fakeSynthesis(format: 'wav' | 'mp3', count: number, clock = { ms: 0 }, chunkMs = 0) {
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
          clock.ms += chunkMs;
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

/** Fair turns whose clock the fake synthesis moves, with every yield recorded. */
function observedTurns() {
  const clock = { ms: 0 };
  const sleeps: number[] = [];
  const turns = new FairTurns(
    (ms) => {
      sleeps.push(ms);
      return new Promise((resolve) => setImmediate(resolve));
    },
    { sliceMs: 1, turnMs: 4, now: () => clock.ms },
  );
  return { clock, sleeps, turns };
}

describe('completeChunks: the chunks of a complete answer', () => {
  it.each([
    // 0.3 ms a chunk: four to a 1 ms slice (1.2 ms), four slices to a 4 ms turn; the first chunk at
    // once, then 119 chunks (35.7 ms of work) in 8 turns of up to 4.8 ms.
    ['wav', 120, 0.3, 'once per turn of ~4 ms of work', 8],
    // 4 ms a chunk: each is a turn of its own.
    ['mp3', 7, 4, 'after every chunk', 7],
  ] as const)(
    '%s: every chunk once, unpaced, with a zero-delay yield %s',
    async (format, count, chunkMs, _every, yields) => {
      const { clock, sleeps, turns } = observedTurns();
      const { synthesis } = fakeSynthesis(format, count, clock, chunkMs);
      const source = completeChunks(synthesis, count * 10, turns);
      expect(await drain(source)).toEqual({ bytes: count * 10, chunks: count });
      expect(sleeps).toEqual(Array(yields).fill(0));
    },
  );

  it('renders only what is pulled, and closes the synthesis when the reader goes away', async () => {
    const { synthesis, seen } = fakeSynthesis('wav', 100);
    const source = completeChunks(synthesis, 1000, observedTurns().turns);
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
      const source = completeChunks(synthesis, announced, observedTurns().turns);
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

/**
 * An mp3-like synthesis: `count` chunks of `pieces` pieces of work of 1 ms each on `clock`, with a
 * pause (an empty array) between two pieces only when asked for, as mp3-encode.ts does; it notes in
 * `order` when each chunk is whole, and what it was asked for.
 */
function longChunks(name: string, count: number, pieces: number, clock: { ms: number }, order: string[]) {
  const asked: (boolean | undefined)[] = [];
  const synthesis: SynthesisStream = {
    format: 'mp3',
    mediaType: 'audio/mpeg',
    sampleRate: 24_000,
    channels: 1,
    bitDepth: 16,
    durationSeconds: count / 10,
    byteLength: count * 10,
    *chunks(options) {
      asked.push(options?.pauses);
      for (let i = 0; i < count; i++) {
        for (let piece = 0; piece < pieces; piece++) {
          if (piece > 0 && options?.pauses) yield new Uint8Array(0);
          clock.ms += 1;
        }
        order.push(name);
        yield new Uint8Array(10).fill(i);
      }
    },
  };
  return { synthesis, asked };
}

describe('a long chunk’s work in pieces (mp3): others go on in the middle of it', () => {
  const unpaced = { firstChunkDelayMs: 0, realtime: false, chunkMs: 100 };

  it('a stream’s 5 ms chunk yields to another stream between its pieces, its bytes whole', async () => {
    const { clock, turns } = observedTurns();
    const order: string[] = [];
    const deps = { turns, sleep: () => Promise.resolve() };
    const long = longChunks('M', 3, 5, clock, order);
    const short = longChunks('w', 12, 1, clock, order);
    const [m, w] = await Promise.all([
      drain(audioChunks(long.synthesis, unpaced, deps)),
      drain(audioChunks(short.synthesis, unpaced, deps)),
    ]);
    // While M makes a chunk (5 ms of work), w's 1 ms chunks go on: w is not held up 5 ms at a time.
    // Without pauses, M made each chunk in one go, w one chunk between two of M's: 'MwMwMwwwwwwwwww'.
    expect(order.join('')).toMatch(/^w*M(w{2,}M){2}w*$/);
    expect([m, w, long.asked]).toEqual([{ bytes: 30, chunks: 3 }, { bytes: 120, chunks: 12 }, [true]]);
  });

  it('a complete answer yields between the pieces too, and no pause reaches its reader', async () => {
    const { clock, turns } = observedTurns();
    const order: string[] = [];
    const long = longChunks('M', 3, 5, clock, order);
    const short = longChunks('w', 12, 1, clock, order);
    const pulled: number[] = [];
    const source = completeChunks(long.synthesis, 30, turns);
    const reading = (async () => {
      for (let chunk = await source.pull(); chunk; chunk = await source.pull()) pulled.push(chunk.byteLength);
    })();
    await Promise.all([reading, drain(completeChunks(short.synthesis, 120, turns))]);
    expect(order.join('')).toMatch(/^w*M(w{2,}M){2}w*$/);
    expect([pulled, long.asked]).toEqual([[10, 10, 10], [true]]);
  });

  it('a stream paced in real time asks for no pauses: its chunks are made at once after each wait', async () => {
    const { clock, turns } = observedTurns();
    const sleeps: number[] = [];
    const deps = {
      turns,
      sleep: (ms: number) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    };
    const long = longChunks('M', 3, 5, clock, []);
    const paced = { firstChunkDelayMs: 0, realtime: true, chunkMs: 100 };
    expect(await drain(audioChunks(long.synthesis, paced, deps))).toEqual({ bytes: 30, chunks: 3 });
    // A wait before each pull but the first, the one that finds the end among them, as before.
    expect([long.asked, sleeps]).toEqual([[false], [100, 100, 100]]);
  });
});
