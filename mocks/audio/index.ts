/**
 * The audio engine of the mock: a deterministic fake-voice synthesizer and the analysis of reference
 * recordings.
 *
 * @example
 * import { synthesizeToBytes, systemVoices, analyze } from './mocks/audio/index.js';
 * const wav = synthesizeToBytes({ text: 'Hello!', voice: systemVoices[0], format: 'wav' });
 * (await analyze(wav)).ok; // true: the kit accepts its own speech as a reference
 */

export { analyze, analyzeDefaults } from './analysis/analyze.js';
export { sniffContainer } from './containers/sniff.js';
export { SynthesisCaches } from './synthesis/caches.js';
export { MP3_KBPS, mp3SampleRates } from './synthesis/mp3-encode.js';
export { type EmotionStyle, emotionStyle, emotionStyles, languageRhythm } from './synthesis/prosody.js';
export {
  DEFAULT_CHUNK_MS,
  DEFAULT_SAMPLE_RATE,
  effectiveRate,
  synthesize,
  synthesizeSamples,
  synthesizeToBytes,
} from './synthesis/synthesize.js';
export { defaultVoiceId, findSystemVoice, profileFromReference, systemVoices } from './synthesis/voices.js';
export { encodeWav, WAV_HEADER_BYTES, type WavFormat, wavHeader } from './synthesis/wav-encode.js';
export type * from './types.js';
