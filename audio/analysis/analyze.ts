/**
 * The analysis of reference recordings (this folder): what a recording is and whether it can be a
 * voice's reference. analyze() runs the verdicts (verdicts.ts) on what the container readers say
 * (../containers/) and on the decoded samples (decode-wav.ts, decode-compressed.ts with
 * mono-collector.ts), with the duration read per container (duration-by-container.ts), speech and
 * pauses from speech-detect.ts and pitch from pitch.ts.
 *
 * May import ../containers/ and ../types.ts, the contract's limits, music-metadata and (only by
 * import(), on first use) the wasm decoders; never ../synthesis/.
 */

import { limits } from '../../openapi/contract.js';
import { type Sniffed, sniff } from '../containers/sniff.js';
import { readWav, type WavInfo } from '../containers/wav-riff.js';
import type { Analysis, AnalyzeOptions, Container } from '../types.js';
import { readCompressed } from './compressed-header.js';
import { canDecode, decodeCompressed } from './decode-compressed.js';
import { decodeWavMono } from './decode-wav.js';
import { decodeSlackSeconds, judgeDecoded } from './judge-decoded.js';
import { analyzeDefaults, durationVerdict, judgeSpeech, refuse } from './verdicts.js';

export { analyzeDefaults };

/** Speech analysis runs near this rate: enough for pitch and voicing, a fraction of the work of 48 kHz. */
const analysisRateHz = 4000;

const accepted = new Set<Container>(['wav', 'mp3', 'm4a', 'ogg', 'webm']);

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
 * 3. too-long (> 60 s) or too-short (< 3 s; 3.0 s and 60.0 s pass), from the header's duration, before any
 *    decoding, so that no decoder ever works on more than about a minute of audio. For compressed files it is
 *    the real (gapless) duration: the encoder's priming and padding, which the file records (LAME tag, M4A
 *    edit list, Opus pre-skip, WebM DiscardPadding), are left out as ffmpeg leaves them out when decoding.
 * Then the samples are decoded: WAV by the kit's reader; MP3, OGG (Opus, Vorbis) and WebM (Opus) by wasm
 * decoders loaded on first use, mixed down to mono, and stopped after 61 s. A compressed file whose
 * decoder rejects a frame or throws, or yields under 90 % of the stated duration, is unsupported
 * (corrupt); one whose audio runs over a second past its header's duration is judged by the decoded
 * duration instead, so a header understating a long file makes it too-long after all.
 * 4. pause-too-long: a gap longer than `maxPauseSeconds` between two stretches of speech. It comes before
 *    the speech amount because it needs speech on both sides: "clear speech with a 20 s pause" is a
 *    pause problem, and trimming the pause is the fix.
 * 5. insufficient-speech: less than `minSpeechSeconds` of speech in total (silence, noise, a tone).
 * M4A (AAC) and WebM holding Vorbis are not decoded: no AAC decoder ships in an npm package, and the
 * Vorbis decoder takes Ogg pages only. They are judged by steps 1–3 alone and come back accepted with
 * `decoded: false` and null speech measures, so steps 4 and 5 cannot refuse them.
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
    ? analyzeWav(bytes, named, options)
    : analyzeCompressed(bytes, sniffed, named, options);
}

async function analyzeCompressed(
  bytes: Uint8Array,
  sniffed: Sniffed,
  named: string,
  options: AnalyzeOptions,
): Promise<Analysis> {
  const { container } = sniffed;
  const described = `${named}${sniffed.detail}`;
  const read = await readCompressed(bytes, sniffed);
  if (!read.ok) return refuse('unsupported', container, `${described} that ${read.reason}`);
  const { info } = read;
  const stated = info.durationSeconds;
  // The duration is judged on the header first, so that no decoder is started for a 20-minute file.
  const byDuration = durationVerdict(container, stated);
  if (byDuration) return byDuration;
  const header = {
    container,
    codec: shortCodec(info.codec),
    sampleRate: info.sampleRate,
    channels: info.channels,
  };
  if (!canDecode(container, header.codec)) {
    return {
      ok: true,
      ...header,
      durationSeconds: stated,
      decoded: false,
      speechFraction: null,
      speechSeconds: null,
      longestPauseSeconds: null,
      pitchHz: null,
    };
  }
  const decoded = await decodeCompressed(bytes, sniffed, {
    analysisRateHz,
    maxSeconds: limits.referenceMaxSeconds.value + decodeSlackSeconds,
  });
  if (!decoded.ok) return refuse('unsupported', container, `${described} that ${decoded.reason}`);
  return judgeDecoded({ ...header, statedSeconds: stated, signal: decoded.signal, described }, options);
}

function analyzeWav(bytes: Uint8Array, named: string, options: AnalyzeOptions): Analysis {
  const read = readWav(bytes);
  if (!read.ok) return refuse('unsupported', 'wav', `${named}an unreadable WAV file: ${read.reason}`);
  const { wav } = read;
  const byDuration = durationVerdict('wav', wav.durationSeconds);
  if (byDuration) return byDuration;
  const decimation = Math.max(1, Math.floor(wav.sampleRate / analysisRateHz));
  return judgeSpeech(
    {
      container: 'wav',
      codec: wavCodec(wav),
      durationSeconds: wav.durationSeconds,
      sampleRate: wav.sampleRate,
      channels: wav.channels,
      mono: decodeWavMono(bytes, wav, decimation),
      monoRateHz: wav.sampleRate / decimation,
    },
    options,
  );
}
