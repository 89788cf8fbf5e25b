import { Mp3Encoder } from '@breezystack/lamejs';
import { SynthesisCaches, synthesize, systemVoices } from '../../audio/index.js';
import { MP3_KBPS } from '../../audio/synthesis/mp3-encode.js';
import { synthesizeStream } from '../../audio/synthesis/stream.js';
import type { SynthesisRequest, SynthesisStream, VoiceProfile } from '../../audio/types.js';

/**
 * The MP3 stream's own costs (issue #25), in one process, side by side: what the first chunk of each
 * of many streams started at once costs (WAV, MP3 as main 380cf13 made it, MP3 now), and where the
 * time of a whole MP3 stream goes (rendering against encoding).
 */

/** How a stream's chunks are made: WAV, MP3 as main made it, MP3 now (primed encoders, first frame). */
export type Mp3Way = 'wav' | 'mp3 as main' | 'mp3 now';

export interface Mp3FirstChunkRow {
  readonly way: Mp3Way;
  /** Wall ms per stream for `newcomers` streams started at once, each to its first chunk (median round). */
  readonly msPerStream: number;
  readonly rounds: number[];
  /** Bytes of the first chunk of the first stream. */
  readonly firstChunkBytes: number;
}

export interface Mp3WholeRow {
  readonly way: 'pcm (rendering only)' | 'mp3 as main' | 'mp3 now';
  readonly cpuMs: number;
  readonly audioSeconds: number;
}

const voice = systemVoices[0] as VoiceProfile;
const base = 'A fair share of the speech, streamed while others stream too, word after word. ';
/** Texts that differ in their first characters, as the fairness bench's (no plan is reused). */
const textOf = (tag: string, i: number, characters: number) =>
  `${tag} ${i} ${base.repeat(Math.ceil(characters / base.length) + 1)}`.slice(0, characters);

/**
 * The encoder as main (380cf13) used it, kept here as the baseline: a new lamejs encoder per stream,
 * each 100 ms chunk encoded whole (its first chunk: three frames, after the encoder was made).
 */
function* mp3AsMain(pcm: Iterable<Int16Array>, sampleRate: number): Generator<Uint8Array, void, void> {
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS);
  for (const chunk of pcm) {
    const out = encoder.encodeBuffer(chunk);
    if (out.length > 0) yield new Uint8Array(out);
  }
  const tail = encoder.flush();
  if (tail.length > 0) yield new Uint8Array(tail);
}

function streamOf(
  way: Mp3Way | Mp3WholeRow['way'],
  request: Omit<SynthesisRequest, 'format'>,
  caches: SynthesisCaches,
): SynthesisStream {
  if (way === 'mp3 as main') return synthesizeStream({ ...request, format: 'mp3' }, caches, mp3AsMain);
  if (way === 'mp3 now') return synthesize({ ...request, format: 'mp3' }, caches);
  return synthesize({ ...request, format: way === 'wav' ? 'wav' : 'pcm' }, caches);
}

/** One round: `newcomers` streams of one way made and pulled to their first chunk, then dropped. */
function firstChunks(
  way: Mp3Way,
  newcomers: number,
  tag: string,
  characters: number,
  caches: SynthesisCaches,
) {
  const open: Generator<Uint8Array, void, void>[] = [];
  let firstChunkBytes = 0;
  const started = performance.now();
  for (let i = 0; i < newcomers; i++) {
    const chunks = streamOf(way, { text: textOf(tag, i, characters), voice }, caches).chunks();
    const first = chunks.next();
    if (i === 0 && !first.done) firstChunkBytes = first.value.byteLength;
    open.push(chunks);
  }
  const ms = (performance.now() - started) / newcomers;
  // Each sends its second chunk (MP3 now makes a primed encoder for a later stream after each chunk it sent:
  // the primed encoders of the next round), then is dropped as a client going away drops it.
  for (const chunks of open) chunks.next();
  for (const chunks of open) chunks.return();
  return { ms, firstChunkBytes };
}

/**
 * `newcomers` streams of `characters` characters each started at once, each to its first chunk, for
 * each way in turn, `rounds` times (the order turning each round); one warm round of each first, so
 * that the primed encoders exist as they do on a mock that has streamed mp3 before.
 */
export function mp3FirstChunk(newcomers: number, characters: number, rounds: number): Mp3FirstChunkRow[] {
  const ways: Mp3Way[] = ['wav', 'mp3 as main', 'mp3 now'];
  const caches = new SynthesisCaches();
  for (const way of ways) firstChunks(way, newcomers, 'warm', characters, caches);
  const samples = new Map<Mp3Way, number[]>(ways.map((way) => [way, []]));
  const bytes = new Map<Mp3Way, number>();
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < ways.length; k++) {
      const way = ways[(round + k) % ways.length] as Mp3Way;
      const { ms, firstChunkBytes } = firstChunks(way, newcomers, `r${round}`, characters, caches);
      samples.get(way)?.push(ms);
      bytes.set(way, firstChunkBytes);
    }
  return ways.map((way) => {
    const all = samples.get(way) ?? [];
    const sorted = [...all].sort((a, b) => a - b);
    return {
      way,
      msPerStream: sorted[sorted.length >> 1] ?? Number.NaN,
      rounds: all,
      firstChunkBytes: bytes.get(way) ?? 0,
    };
  });
}

/**
 * CPU ms of `streams` whole streams of `characters` characters each, rendered only and as MP3 both
 * ways: `rounds` rounds, the order turning each round, each way's streams summed over the rounds.
 */
export function mp3Whole(streams: number, characters: number, rounds: number): Mp3WholeRow[] {
  const caches = new SynthesisCaches();
  const ways: Mp3WholeRow['way'][] = ['pcm (rendering only)', 'mp3 as main', 'mp3 now'];
  const totals = new Map(ways.map((way) => [way, { cpuMs: 0, audioSeconds: 0 }]));
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < ways.length; k++) {
      const way = ways[(round + k) % ways.length] as Mp3WholeRow['way'];
      const total = totals.get(way) as { cpuMs: number; audioSeconds: number };
      const before = process.cpuUsage();
      for (let i = 0; i < streams; i++) {
        const stream = streamOf(way, { text: textOf(`whole ${round}`, i, characters), voice }, caches);
        for (const _ of stream.chunks());
        total.audioSeconds += stream.durationSeconds;
      }
      const used = process.cpuUsage(before);
      total.cpuMs += (used.user + used.system) / 1000;
    }
  return ways.map((way) => ({ way, ...(totals.get(way) as { cpuMs: number; audioSeconds: number }) }));
}
