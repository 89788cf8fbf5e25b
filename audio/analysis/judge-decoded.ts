import { limits } from '../../openapi/contract.js';
import type { Analysis, AnalyzeOptions, Container } from '../types.js';
import type { MonoSignal } from './mono-collector.js';
import { durationVerdict, judgeSpeech, refuse, seconds } from './verdicts.js';

/**
 * How far decoded audio may run past the header's duration and still count as the same length (encoder
 * padding, the rest of a cut Ogg page), and past 60 s before decoding stops.
 */
export const decodeSlackSeconds = 1;

/** A decoder yielding less than this share of the duration its header states is reading a corrupt file. */
const minDecodedShare = 0.9;

/** A compressed reference whose header was judged and whose samples were decoded. */
export interface DecodedCompressed {
  readonly container: Container;
  readonly codec: string;
  readonly sampleRate: number;
  readonly channels: number;
  /** The duration judged before decoding (header, MP3 frames, WebM blocks or the last Ogg page). */
  readonly statedSeconds: number;
  readonly signal: MonoSignal;
  /** The start of a refusal sentence naming the file: `"voice.ogg" is an Ogg file with Opus`. */
  readonly described: string;
}

/**
 * Judges a decoded compressed reference against the duration its header stated, then by speech and
 * pauses as a WAV is judged. The decoded length settles what the header cannot:
 * - much shorter than stated (under 90 %): the frames are damaged, so unsupported (corrupt);
 * - longer by more than the slack: the header understates its audio (a stale Xing header, a rewritten
 *   Ogg granule), so the decoded duration is judged instead, and may be too-long;
 * - otherwise the stated duration stands, and the analysis covers exactly that much audio.
 *
 * @example
 * const analysis = judgeDecoded({ container: 'ogg', codec: 'opus', sampleRate: 48000, channels: 1,
 *   statedSeconds: 7.57, signal, described: 'the reference audio is an Ogg file with Opus' }, {});
 */
export function judgeDecoded(reference: DecodedCompressed, options: AnalyzeOptions): Analysis {
  const { container, statedSeconds: stated, signal } = reference;
  const decoded = signal.seconds;
  if (decoded < stated * minDecodedShare) {
    const reason = `is corrupt: it decodes to ${seconds(decoded)} of the ${seconds(stated)} its header states`;
    return refuse('unsupported', container, `${reference.described} that ${reason}`);
  }
  const max = limits.referenceMaxSeconds.value;
  if (decoded > max + decodeSlackSeconds) {
    // Decoding stopped at the cap, so the real length is unknown beyond "more than 60 s".
    const reason = `reference audio decodes to more than ${max} s although its header states ${seconds(stated)}; at most ${max} s is allowed`;
    return refuse('too-long', container, reason, decoded);
  }
  const duration = decoded > stated + decodeSlackSeconds ? decoded : stated;
  const byDuration = duration === stated ? undefined : durationVerdict(container, duration);
  if (byDuration) return byDuration;
  return judgeSpeech(
    {
      container,
      codec: reference.codec,
      durationSeconds: duration,
      sampleRate: reference.sampleRate,
      channels: reference.channels,
      mono: signal.samples.subarray(0, Math.ceil(duration * signal.sampleRate)),
      monoRateHz: signal.sampleRate,
    },
    options,
  );
}
