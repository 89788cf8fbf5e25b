/**
 * The audio engine of the mock: a deterministic fake-voice synthesizer and the analysis of reference
 * recordings. This file is its public face; types.ts holds the types both halves and the mock share.
 *
 * - analysis/    what a recording is: the verdict on a reference, decoding, speech, pauses and pitch.
 *                May import containers/ (never synthesis/).
 * - synthesis/   text + voice → PCM, WAV or MP3, whole or streamed, and the SynthesisCaches its
 *                callers own. Imports neither analysis/ nor containers/.
 * - containers/  byte formats: sniffing, WAV/RIFF, MPEG frames and tags, MP4 boxes, WebM/EBML, Opus
 *                packets and heads. Imports nothing outside the folder but the shared types; numbers
 *                and text are read with its byte reader (bytes.ts).
 * - test/        tests and measurements that cross these boundaries (fixtures, decoders, layout).
 *
 * Web platform only outside test files (no Buffer, node: or process), so it bundles for a browser.
 *
 * @example
 * import { synthesizeToBytes, systemVoices, analyze } from './audio/index.js';
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
