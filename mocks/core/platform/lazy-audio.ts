import { SynthesisCaches } from '../../../audio/synthesis/caches.js';
import { profileFromReference, systemVoices } from '../../../audio/synthesis/voices.js';
import type { AudioEngine } from '../context.js';

type AnalyzeModule = typeof import('../../../audio/analysis/analyze.js');
type SynthesizeModule = typeof import('../../../audio/synthesis/synthesize.js');
type StreamModule = typeof import('../../../audio/synthesis/stream.js');

/**
 * The audio engine, imported piece by piece on first use: the analysis pulls in music-metadata
 * and the synthesizer lamejs, which together cost the mock ~300 ms of startup when imported eagerly,
 * though a list or an upload needs neither. The voices are small and needed at once. The engine owns
 * one SynthesisCaches (`caches`), so an identical synthesis request skips its parse and size count.
 *
 * @example
 * createMockService({ audio: lazyAudioEngine() }); // the default
 */
export function lazyAudioEngine(): AudioEngine & { readonly caches: SynthesisCaches } {
  const caches = new SynthesisCaches();
  let analysis: Promise<AnalyzeModule> | undefined;
  let synthesis: Promise<SynthesizeModule> | undefined;
  let plain: Promise<StreamModule> | undefined;
  return {
    caches,
    systemVoices,
    profileFromReference,
    async analyze(bytes, options) {
      analysis ??= import('../../../audio/analysis/analyze.js');
      return (await analysis).analyze(bytes, options);
    },
    async synthesize(request) {
      if (request.format === 'mp3') {
        synthesis ??= import('../../../audio/synthesis/synthesize.js');
        return (await synthesis).synthesize(request, caches);
      }
      // WAV and PCM never load the MP3 encoder (~25 ms the first stream would wait for).
      plain ??= import('../../../audio/synthesis/stream.js');
      return (await plain).synthesizeStream(request, caches);
    },
  };
}
