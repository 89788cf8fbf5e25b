import type { SynthesisStream } from '../audio/types.js';
import type { ChunkSource } from './answer.js';
import type { ServiceDeps } from './context.js';
import { concat } from './storage.js';

/** How the audio of one answer is paced: a wait before the first chunk, and real-time pacing after it. */
export interface Pacing {
  readonly firstChunkDelayMs: number;
  readonly realtime: boolean;
  readonly chunkMs: number;
}

/**
 * The chunks of a streamed synthesis, made one at a time as they are pulled (a chunk is rendered only
 * when the reader asks for it); rendering stops when the reader cancels (the client went away).
 *
 * @example
 * new StreamAnswer(200, audioChunks(synthesis, pacing, deps.sleep), { 'Content-Type': 'audio/wav' });
 */
export function audioChunks(
  synthesis: SynthesisStream,
  pacing: Pacing,
  sleep: ServiceDeps['sleep'],
): ChunkSource {
  const chunks = synthesis.chunks();
  const slow = synthesis.format === 'mp3';
  let first = true;
  const next = (): Uint8Array | undefined => {
    const step = chunks.next();
    return step.done ? undefined : step.value;
  };
  return {
    pull() {
      const wait = first ? pacing.firstChunkDelayMs : pacing.realtime ? pacing.chunkMs : 0;
      // mp3 rendering (lamejs, ~20× real time) is synchronous, and a reader that keeps up never lets
      // the event loop in: a zero-delay sleep between its chunks lets other requests interleave. WAV
      // and PCM render a chunk in ~0.1 ms; yielding there too kept hundreds of concurrent streams
      // half-rendered at once (+380 MB RSS in the 200-stream bench), so they don't.
      const waits = wait > 0 || (!first && slow);
      first = false;
      return waits ? sleep(wait).then(next) : next();
    },
    cancel() {
      chunks.return();
    },
  };
}

/**
 * The complete audio of a synthesis, built chunk by chunk with a zero-delay sleep between chunks, so
 * a long text (an mp3 of 3,000 characters encodes for seconds) never blocks other requests. The bytes
 * are exactly those the stream of the same synthesis sends. Undefined when `signal` aborts first (the
 * client went away): rendering stops there.
 *
 * @example
 * const bytes = await collectAudio(synthesis, deps.sleep, request.signal);
 */
export async function collectAudio(
  synthesis: SynthesisStream,
  sleep: ServiceDeps['sleep'],
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const parts: Uint8Array[] = [];
  // Yield after each mp3 chunk, and after every 50 WAV/PCM chunks (5 s of audio, ~5 ms of work).
  const every = synthesis.format === 'mp3' ? 1 : 50;
  let count = 0;
  for (const chunk of synthesis.chunks()) {
    parts.push(chunk);
    count += 1;
    if (count % every !== 0) continue;
    await sleep(0);
    if (signal?.aborted) return undefined;
  }
  return concat(parts);
}
