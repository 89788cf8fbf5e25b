import type { SynthesisRequest } from '../audio/types.js';
import type { ServiceDeps } from './context.js';
import { type CompleteAudio, CompleteAudioCache } from './state/complete-audio-cache.js';
import { collectAudio } from './synthesis-body.js';

/**
 * The complete audio of a synthesis request: from the service's cache, or synthesized chunk by chunk
 * with a yield to the event loop between chunks (see collectAudio), then cached. Undefined when
 * `signal` aborts while it is being built.
 *
 * @example
 * const audio = await completeAudio(deps, request, context.request.signal);
 */
export async function completeAudio(
  deps: ServiceDeps,
  request: SynthesisRequest,
  signal?: AbortSignal,
): Promise<CompleteAudio | undefined> {
  const cache = deps.state.caches.completeAudio;
  const key = CompleteAudioCache.key(request);
  const hit = cache.get(key);
  if (hit) return hit;
  const synthesis = await deps.audio.synthesize(request);
  const bytes = await collectAudio(synthesis, deps.sleep, signal);
  if (!bytes) return undefined;
  const { mediaType, sampleRate, channels, bitDepth } = synthesis;
  return cache.set(key, { meta: { mediaType, sampleRate, channels, bitDepth }, bytes });
}
