import { limits, type ReferenceVerdict } from '../../openapi/contract.js';
import { readCompressed } from './analyze-compressed.js';
import { type Sniffed, sniff } from './container.js';
import { detectSpeech } from './speech-detect.js';
import type { Analysis, AnalysisAccepted, AnalyzeOptions, Container } from './types.js';
import { decodeWavMono, readWav, type WavInfo } from './wav-decode.js';

/**
 * Defaults of the points the spec leaves open (`pause-limit`, `usable-speech-criteria`): the longest pause
 * allowed inside speech, and the least speech a reference must hold in total.
 */
export const analyzeDefaults = {
  maxPauseSeconds: 5,
  minSpeechSeconds: 1,
} as const satisfies Required<AnalyzeOptions>;

/** Speech analysis runs near this rate: enough for pitch and voicing, a fraction of the work of 48 kHz. */
const analysisRateHz = 4000;

const accepted = new Set<Container>(['wav', 'mp3', 'm4a', 'ogg', 'webm']);

const refuse = (
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

const seconds = (value: number): string => `${value.toFixed(2)} s`;

function wavCodec(wav: WavInfo): string {
  if (wav.encoding === 'alaw' || wav.encoding === 'mulaw') return `pcm_${wav.encoding}`;
  if (wav.encoding === 'float') return `pcm_f${wav.bitsPerSample}le`;
  return wav.bitsPerSample === 8 ? 'pcm_u8' : `pcm_s${wav.bitsPerSample}le`;
}

function shortCodec(codec: string): string {
  const known = /opus|vorbis|aac|layer 3/i.exec(codec)?.[0].toLowerCase();
  return known === 'layer 3' ? 'mp3' : (known ?? codec);
}

/**
 * Judges a reference recording for voice creation (spec §4.2) and maps it to a verdict of
 * `contract.referenceVerdicts`. Pure: bytes in, a value out; no file system, no network.
 *
 * Verdict precedence, first match wins, from what can be checked without reading the audio to what needs
 * the most of it, so that each verdict names the most specific fault the bytes show:
 * 1. too-large: more than 20 MiB (exactly 20,971,520 bytes passes), judged on the byte count alone.
 * 2. unsupported: the bytes are no WAV, MP3, M4A (AAC), OGG (Opus/Vorbis) or WebM (Opus/Vorbis), or the
 *    header is corrupt or truncated, or there is no audio stream. The file name never matters.
 * 3. too-long (> 60 s) or too-short (< 3 s; 3.0 s and 60.0 s pass), from the header's duration.
 * 4. pause-too-long: a gap longer than `maxPauseSeconds` between two stretches of speech. It comes before
 *    the speech amount because it needs speech on both sides: "clear speech with a 20 s pause" is a
 *    pause problem, and trimming the pause is the fix.
 * 5. insufficient-speech: less than `minSpeechSeconds` of speech in total (silence, noise, a tone).
 * Steps 4 and 5 need decoded samples, which only WAV has here: MP3, M4A, OGG and WebM are judged on
 * size, container, codec and duration, and come back with `decoded: false`.
 *
 * @example
 * const analysis = await analyze(bytes, { maxPauseSeconds: 5 });
 * if (!analysis.ok) return errorFor(contract.referenceVerdicts[analysis.verdict]);
 */
export async function analyze(
  bytes: Uint8Array,
  options: AnalyzeOptions & { fileName?: string } = {},
): Promise<Analysis> {
  const sniffed = sniff(bytes);
  const { container } = sniffed;
  const maxBytes = limits.referenceMaxBytes.value;
  if (bytes.length > maxBytes) {
    return refuse(
      'too-large',
      container,
      `reference audio is ${bytes.length} bytes; at most ${maxBytes} are allowed`,
    );
  }
  const named = options.fileName ? `"${options.fileName}" is ` : 'the reference audio is ';
  if (!accepted.has(container)) {
    return refuse(
      'unsupported',
      container,
      `${named}${sniffed.detail}: not a WAV, MP3, M4A, WebM or OGG file`,
    );
  }
  return container === 'wav'
    ? analyzeWav(bytes, sniffed, named, options)
    : analyzeCompressed(bytes, sniffed, named);
}

function durationVerdict(container: Container, duration: number): Analysis | undefined {
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

async function analyzeCompressed(bytes: Uint8Array, sniffed: Sniffed, named: string): Promise<Analysis> {
  const read = await readCompressed(bytes, sniffed);
  if (!read.ok)
    return refuse('unsupported', sniffed.container, `${named}${sniffed.detail} that ${read.reason}`);
  const { info } = read;
  return (
    durationVerdict(sniffed.container, info.durationSeconds) ?? {
      ok: true,
      container: sniffed.container,
      codec: shortCodec(info.codec),
      durationSeconds: info.durationSeconds,
      sampleRate: info.sampleRate,
      channels: info.channels,
      decoded: false,
      speechFraction: null,
      speechSeconds: null,
      longestPauseSeconds: null,
      pitchHz: null,
    }
  );
}

function analyzeWav(bytes: Uint8Array, sniffed: Sniffed, named: string, options: AnalyzeOptions): Analysis {
  const read = readWav(bytes);
  if (!read.ok) return refuse('unsupported', 'wav', `${named}an unreadable WAV file: ${read.reason}`);
  const { wav } = read;
  const byDuration = durationVerdict('wav', wav.durationSeconds);
  if (byDuration) return byDuration;
  const decimation = Math.max(1, Math.floor(wav.sampleRate / analysisRateHz));
  const speech = detectSpeech(decodeWavMono(bytes, wav, decimation), wav.sampleRate / decimation);
  const maxPause = options.maxPauseSeconds ?? analyzeDefaults.maxPauseSeconds;
  const minSpeech = options.minSpeechSeconds ?? analyzeDefaults.minSpeechSeconds;
  const duration = wav.durationSeconds;
  if (speech.longestPauseSeconds > maxPause) {
    const pause = seconds(speech.longestPauseSeconds);
    return refuse(
      'pause-too-long',
      'wav',
      `reference audio contains a pause of ${pause}; at most ${maxPause} s is allowed`,
      duration,
    );
  }
  if (speech.speechSeconds < minSpeech) {
    const found = seconds(speech.speechSeconds);
    return refuse(
      'insufficient-speech',
      'wav',
      `reference audio holds ${found} of speech; at least ${minSpeech} s is required`,
      duration,
    );
  }
  const result: AnalysisAccepted = {
    ok: true,
    container: sniffed.container,
    codec: wavCodec(wav),
    durationSeconds: duration,
    sampleRate: wav.sampleRate,
    channels: wav.channels,
    decoded: true,
    speechFraction: speech.speechFraction,
    speechSeconds: speech.speechSeconds,
    longestPauseSeconds: speech.longestPauseSeconds,
    pitchHz: speech.pitchHz,
  };
  return result;
}
