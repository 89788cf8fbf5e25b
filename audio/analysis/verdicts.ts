import { limits, type ReferenceVerdict } from '../../openapi/contract.js';
import type { Analysis, AnalysisAccepted, AnalyzeOptions, Container } from '../types.js';
import { detectSpeech } from './speech-detect.js';

/**
 * Defaults of the points the spec leaves open (`pause-limit`, `usable-speech-criteria`): the longest pause
 * allowed inside speech, and the least speech a reference must hold in total.
 */
export const analyzeDefaults = {
  maxPauseSeconds: 5,
  minSpeechSeconds: 1,
} as const satisfies Required<AnalyzeOptions>;

/**
 * A refusal with its verdict and a sentence for the error message.
 *
 * @example
 * refuse('unsupported', 'ogg', 'the reference audio is an Ogg file that is corrupt');
 */
export const refuse = (
  verdict: ReferenceVerdict,
  container: Container,
  reason: string,
  durationSeconds?: number,
): Analysis => ({
  ok: false,
  verdict,
  reason,
  container,
  ...(durationSeconds === undefined ? {} : { durationSeconds }),
});

/** Seconds as error messages show them: `7.57 s`. */
export const seconds = (value: number): string => `${value.toFixed(2)} s`;

/**
 * too-long or too-short by the duration (3.0 s and 60.0 s pass), or undefined when the duration is allowed.
 *
 * @example
 * durationVerdict('mp3', 61)?.verdict; // 'too-long'
 */
export function durationVerdict(container: Container, duration: number): Analysis | undefined {
  const { referenceMinSeconds: min, referenceMaxSeconds: max } = limits;
  if (duration > max.value) {
    return refuse(
      'too-long',
      container,
      `reference audio is ${seconds(duration)} long; at most ${max.value} s is allowed`,
      duration,
    );
  }
  if (duration < min.value) {
    return refuse(
      'too-short',
      container,
      `reference audio is ${seconds(duration)} long; at least ${min.value} s is required`,
      duration,
    );
  }
  return undefined;
}

/** A decoded recording: what its header says, and its samples as one channel at the analysis rate. */
export interface DecodedReference {
  readonly container: Container;
  readonly codec: string | undefined;
  readonly durationSeconds: number;
  readonly sampleRate: number;
  readonly channels: number;
  readonly mono: Float32Array;
  readonly monoRateHz: number;
}

/**
 * Steps 4 and 5 of the verdict precedence, the same for every container: pause-too-long, then
 * insufficient-speech, else accepted with what was measured.
 *
 * @example
 * judgeSpeech({ container: 'wav', codec: 'pcm_s16le', durationSeconds: 7.6, sampleRate: 22050,
 *   channels: 1, mono, monoRateHz: 4410 }, {});
 */
export function judgeSpeech(reference: DecodedReference, options: AnalyzeOptions): Analysis {
  const { container, durationSeconds: duration } = reference;
  const speech = detectSpeech(reference.mono, reference.monoRateHz);
  const maxPause = options.maxPauseSeconds ?? analyzeDefaults.maxPauseSeconds;
  const minSpeech = options.minSpeechSeconds ?? analyzeDefaults.minSpeechSeconds;
  if (speech.longestPauseSeconds > maxPause) {
    const pause = seconds(speech.longestPauseSeconds);
    return refuse(
      'pause-too-long',
      container,
      `reference audio contains a pause of ${pause}; at most ${maxPause} s is allowed`,
      duration,
    );
  }
  if (speech.speechSeconds < minSpeech) {
    const found = seconds(speech.speechSeconds);
    return refuse(
      'insufficient-speech',
      container,
      `reference audio holds ${found} of speech; at least ${minSpeech} s is required`,
      duration,
    );
  }
  const accepted: AnalysisAccepted = {
    ok: true,
    container,
    codec: reference.codec,
    durationSeconds: duration,
    sampleRate: reference.sampleRate,
    channels: reference.channels,
    decoded: true,
    speechFraction: speech.speechFraction,
    speechSeconds: speech.speechSeconds,
    longestPauseSeconds: speech.longestPauseSeconds,
    pitchHz: speech.pitchHz,
  };
  return accepted;
}
