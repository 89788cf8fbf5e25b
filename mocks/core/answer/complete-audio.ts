import type { SynthesisRequest } from '../../../audio/types.js';
import type { ServiceDeps } from '../context.js';
import { type CompleteAudio, CompleteAudioCache } from '../state/complete-audio-cache.js';
import type { ChunkSource } from './answer.js';
import { collectAudio, completeChunks } from './synthesis-body.js';

/** A complete answer's audio still to render: its chunks, pulled by whoever sends them, and their exact total. */
export interface RenderedAudio {
  readonly meta: CompleteAudio['meta'];
  readonly byteLength: number;
  readonly source: ChunkSource;
}

/**
 * The complete audio of a synthesis request (§4.5): bytes from the service's cache, or its chunks to
 * render as they are sent, with their exact length known before the first one (WAV, PCM, and mp3 at
 * the mock's 24 kHz). So a long text is never held whole: 10,000 characters at speed 0.25 are ~160 MB
 * of WAV. An answer small enough for the cache (state/complete-audio-cache.ts) is copied there as it
 * is sent, and kept once its last chunk is out, so an identical request is answered from memory.
 * Audio whose length cannot be known before it is rendered is collected whole first, as it always
 * was; undefined when `signal` aborts while it is being collected.
 *
 * @example
 * const audio = await completeAudio(deps, request, context.request.signal);
 * if (audio && 'source' in audio) new StreamAnswer(200, audio.source, headersOf(audio));
 */
export async function completeAudio(
  deps: ServiceDeps,
  request: SynthesisRequest,
  signal?: AbortSignal,
): Promise<CompleteAudio | RenderedAudio | undefined> {
  const cache = deps.state.caches.completeAudio;
  const key = CompleteAudioCache.key(request);
  const hit = cache.get(key);
  if (hit) return hit;
  const synthesis = await deps.audio.synthesize(request);
  const { mediaType, sampleRate, channels, bitDepth, byteLength } = synthesis;
  const meta = { mediaType, sampleRate, channels, bitDepth };
  if (byteLength === undefined) {
    const bytes = await collectAudio(synthesis, deps.turns, signal);
    return bytes && cache.set(key, { meta, bytes });
  }
  const source = completeChunks(synthesis, byteLength, deps.turns);
  if (!cache.keeps(byteLength)) return { meta, byteLength, source };
  return {
    meta,
    byteLength,
    source: keeping(source, byteLength, (bytes) => cache.set(key, { meta, bytes })),
  };
}

/**
 * `source`, with a copy of its chunks made as they pass into one buffer of the announced length,
 * handed to `keep` once the last chunk is out (and dropped if the reader goes away first).
 */
function keeping(
  source: ChunkSource,
  byteLength: number,
  keep: (bytes: Uint8Array<ArrayBuffer>) => void,
): ChunkSource {
  let copy: Uint8Array<ArrayBuffer> | undefined = new Uint8Array(byteLength);
  let at = 0;
  const take = (chunk: Uint8Array | undefined): Uint8Array | undefined => {
    if (!copy) return chunk;
    if (chunk === undefined) {
      if (at === byteLength) keep(copy);
      copy = undefined;
    } else if (at + chunk.byteLength > byteLength) {
      copy = undefined;
    } else {
      copy.set(chunk, at);
      at += chunk.byteLength;
    }
    return chunk;
  };
  return {
    pull() {
      const pulled = source.pull();
      return pulled instanceof Promise ? pulled.then(take) : take(pulled);
    },
    cancel() {
      copy = undefined;
      source.cancel();
    },
  };
}
