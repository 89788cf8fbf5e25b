import type { SynthesisStream } from '../audio/types.js';
import type { ServiceDeps } from './context.js';

/** How the audio of one answer is paced: a wait before the first chunk, and real-time pacing after it. */
export interface Pacing {
  readonly firstChunkDelayMs: number;
  readonly realtime: boolean;
  readonly chunkMs: number;
}

/**
 * A body that pulls the synthesizer's chunks one at a time (a chunk is rendered only when the reader
 * asks for it) and stops rendering when the reader cancels (the client went away).
 *
 * @example
 * new Response(audioBody(synthesis, pacing, deps.sleep));
 */
export function audioBody(
  synthesis: SynthesisStream,
  pacing: Pacing,
  sleep: ServiceDeps['sleep'],
): ReadableStream<Uint8Array> {
  const chunks = synthesis.chunks();
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const wait = first ? pacing.firstChunkDelayMs : pacing.realtime ? pacing.chunkMs : 0;
        first = false;
        if (wait > 0) await sleep(wait);
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel() {
        chunks.return();
      },
    },
    { highWaterMark: 0 },
  );
}
