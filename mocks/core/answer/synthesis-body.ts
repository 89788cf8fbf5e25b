import type { SynthesisStream } from '../../../audio/types.js';
import type { ServiceDeps } from '../context.js';
import { concat } from '../platform/storage.js';
import type { ChunkSource } from './answer.js';

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

/** How often complete audio yields: after every mp3 chunk, every 50 WAV/PCM chunks (5 s of audio, ~5 ms of work). */
const yieldEvery = (synthesis: SynthesisStream): number => (synthesis.format === 'mp3' ? 1 : 50);

/**
 * The chunks of a complete answer (§4.5), rendered as they are pulled, exactly those of the stream of
 * the same synthesis, with no pacing: a zero-delay sleep after every mp3 chunk and every 50 WAV/PCM
 * chunks, so a long text (an mp3 of 3,000 characters encodes for seconds) never blocks other requests
 * while a reader keeps up. `byteLength` is the length its headers promise: a body that comes out
 * another length errors (a cut connection) before it would contradict them, by a byte too many or at
 * an end too early. Rendering stops when the reader cancels (the client went away).
 *
 * @example
 * new StreamAnswer(200, completeChunks(synthesis, synthesis.byteLength, deps.sleep), headers);
 */
export function completeChunks(
  synthesis: SynthesisStream,
  byteLength: number,
  sleep: ServiceDeps['sleep'],
): ChunkSource {
  const chunks = synthesis.chunks();
  const every = yieldEvery(synthesis);
  let count = 0;
  let sent = 0;
  let cancelled = false;
  const next = (): Uint8Array | undefined => {
    const step = chunks.next();
    if (step.done) {
      if (sent < byteLength && !cancelled)
        throw new Error(
          `complete audio: ${sent} bytes rendered, ${byteLength} announced (a bug of the mock)`,
        );
      return undefined;
    }
    sent += step.value.byteLength;
    if (sent > byteLength) {
      chunks.return();
      throw new Error(
        `complete audio: over ${byteLength} bytes rendered, ${byteLength} announced (a bug of the mock)`,
      );
    }
    count += 1;
    return step.value;
  };
  return {
    pull() {
      return count > 0 && count % every === 0 ? sleep(0).then(next) : next();
    },
    cancel() {
      cancelled = true;
      chunks.return();
    },
  };
}

/**
 * The complete audio of a synthesis whose length is not known before it is rendered (an mp3 at a
 * rate whose frames differ in size, or an injected engine's), collected whole with the same yields as
 * completeChunks. Undefined when `signal` aborts first (the client went away): rendering stops there.
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
  const every = yieldEvery(synthesis);
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
