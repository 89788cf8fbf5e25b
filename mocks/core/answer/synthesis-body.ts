import type { SynthesisStream } from '../../../audio/types.js';
import type { ServiceDeps } from '../context.js';
import { concat } from '../platform/storage.js';
import type { ChunkSource } from './answer.js';
import type { FairTurns, Slice } from './fair-turns.js';

/** How the audio of one answer is paced: a wait before the first chunk, and real-time pacing after it. */
export interface Pacing {
  readonly firstChunkDelayMs: number;
  readonly realtime: boolean;
  readonly chunkMs: number;
}

/**
 * The chunks of a streamed synthesis, made one at a time as they are pulled (a chunk is rendered only
 * when the reader asks for it); rendering stops when the reader cancels (the client went away). Each
 * chunk is made in this stream's fair turns (fair-turns.ts), the first before those of streams
 * already streaming, so that many streams at once take turns instead of each waiting for the ones
 * before it to end. An unpaced stream asks its synthesis for pauses (an mp3 chunk is ~4–5 ms of
 * encoding): its slice may end in the middle of a chunk, which is sent when it is whole. A stream
 * paced in real time does not: each of its chunks is made at once after its wait, as before.
 *
 * @example
 * new StreamAnswer(200, audioChunks(synthesis, pacing, deps), { 'Content-Type': 'audio/wav' });
 */
export function audioChunks(
  synthesis: SynthesisStream,
  pacing: Pacing,
  deps: Pick<ServiceDeps, 'sleep' | 'turns'>,
  /** This stream's share of the turns, when its first turn was taken already (before its sizing). */
  begun?: Slice,
): ChunkSource {
  const chunks = synthesis.chunks({ pauses: !pacing.realtime });
  const slice = begun ?? deps.turns.slice();
  let first = true;
  const next = (): Uint8Array | undefined | Promise<Uint8Array | undefined> => {
    const step = pausing(chunks, slice, next);
    if (step === undefined) slice.done();
    return step;
  };
  return {
    pull() {
      const wait = first ? pacing.firstChunkDelayMs : pacing.realtime ? pacing.chunkMs : 0;
      const wasFirst = first;
      first = false;
      // A paced chunk waits its time and is then made at once, as before: pacing is a wait, not work.
      if (wait > 0) return deps.sleep(wait).then(next);
      const due = wasFirst ? (begun ? undefined : slice.first()) : slice.due();
      return due ? due.then(next) : next();
    },
    cancel() {
      chunks.return();
      slice.done();
    },
  };
}

/**
 * The chunks of a complete answer (§4.5), rendered as they are pulled, exactly those of the stream of
 * the same synthesis, with no pacing, in the same fair turns as the streams (fair-turns.ts), so a long
 * text (an mp3 of 3,000 characters encodes for seconds) never blocks other requests while a reader
 * keeps up. `byteLength` is the length its headers promise: a body that comes out
 * another length errors (a cut connection) before it would contradict them, by a byte too many or at
 * an end too early. Rendering stops when the reader cancels (the client went away).
 *
 * @example
 * new StreamAnswer(200, completeChunks(synthesis, synthesis.byteLength, deps.turns), headers);
 */
export function completeChunks(
  synthesis: SynthesisStream,
  byteLength: number,
  turns: FairTurns,
): ChunkSource {
  const chunks = synthesis.chunks({ pauses: true });
  const slice = turns.slice();
  let count = 0;
  let sent = 0;
  let cancelled = false;
  const next = (): Uint8Array | undefined | Promise<Uint8Array | undefined> => {
    const step = pausing(chunks, slice, next);
    if (step instanceof Promise) return step;
    if (step === undefined) {
      slice.done();
      if (sent < byteLength && !cancelled)
        throw new Error(
          `complete audio: ${sent} bytes rendered, ${byteLength} announced (a bug of the mock)`,
        );
      return undefined;
    }
    sent += step.byteLength;
    if (sent > byteLength) {
      chunks.return();
      slice.done();
      throw new Error(
        `complete audio: over ${byteLength} bytes rendered, ${byteLength} announced (a bug of the mock)`,
      );
    }
    count += 1;
    return step;
  };
  return {
    pull() {
      const due = count > 0 ? slice.due() : slice.first();
      return due ? due.then(next) : next();
    },
    cancel() {
      cancelled = true;
      chunks.return();
      slice.done();
    },
  };
}

/**
 * The complete audio of a synthesis whose length is not known before it is rendered (an mp3 at a
 * rate whose frames differ in size, or an injected engine's), collected whole in the same fair turns
 * as completeChunks. Undefined when `signal` aborts first (the client went away): rendering stops there.
 *
 * @example
 * const bytes = await collectAudio(synthesis, deps.turns, request.signal);
 */
export async function collectAudio(
  synthesis: SynthesisStream,
  turns: FairTurns,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const parts: Uint8Array[] = [];
  const slice = turns.slice();
  try {
    await slice.first();
    if (signal?.aborted) return undefined;
    for (const chunk of synthesis.chunks({ pauses: true })) {
      // An empty chunk is a pause inside a chunk's work: only a chance to yield.
      if (chunk.byteLength > 0) parts.push(chunk);
      const due = slice.due();
      if (!due) continue;
      await due;
      if (signal?.aborted) return undefined;
    }
  } finally {
    slice.done();
  }
  return concat(parts);
}

/**
 * The next chunk of `chunks`, undefined at their end; a pause (an empty array, SynthesisStream.chunks)
 * asks `slice` whether its time is over, and if it is, the rest is `resume()` once its next slice
 * comes. So no empty array ever reaches the reader, and the chunks are those without pauses.
 */
function pausing(
  chunks: Generator<Uint8Array, void, void>,
  slice: Slice,
  resume: () => Uint8Array | undefined | Promise<Uint8Array | undefined>,
): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  for (;;) {
    const step = chunks.next();
    if (step.done) return undefined;
    if (step.value.byteLength > 0) return step.value;
    const due = slice.due();
    if (due) return due.then(resume);
  }
}
