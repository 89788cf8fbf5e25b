import { framePeriodicity, halveRate, highPass, median, prepare } from './pitch.js';

/** Tunables of the speech detector; the defaults are documented in the kit's README. */
export interface SpeechDetectOptions {
  /** Analysis frame, seconds. */
  readonly frameSeconds?: number;
  /** Frames quieter than this (dB relative to full scale, RMS) are never speech. */
  readonly minLevelDb?: number;
  /** A frame must be this many dB above the recording's noise floor (its 10th-percentile frame level). */
  readonly aboveFloorDb?: number;
  /** Least normalised periodicity of a voiced frame: noise stays well below it. */
  readonly voicingThreshold?: number;
  /** Within ±`contextSeconds`, speech changes level by at least this many dB (syllables)… */
  readonly minLevelRangeDb?: number;
  /** …and pitch by at least this ratio (intonation); a steady tone or hum does neither. */
  readonly minPitchVariation?: number;
  readonly contextSeconds?: number;
  /** Gaps up to this long (unvoiced consonants, between words) are part of the speech around them. */
  readonly bridgeSeconds?: number;
  /** Shorter bursts are clicks, not speech. */
  readonly minSegmentSeconds?: number;
}

export const speechDetectDefaults = {
  frameSeconds: 0.02,
  minLevelDb: -55,
  aboveFloorDb: 10,
  voicingThreshold: 0.65,
  minLevelRangeDb: 6,
  minPitchVariation: 0.02,
  contextSeconds: 0.5,
  bridgeSeconds: 0.25,
  minSegmentSeconds: 0.06,
} as const satisfies Required<SpeechDetectOptions>;

/** One stretch of speech, seconds from the start of the recording. */
export interface SpeechSegment {
  readonly startSeconds: number;
  readonly endSeconds: number;
}

/** What the detector found. Leading and trailing silence are not pauses: a pause lies between speech. */
export interface SpeechReport {
  readonly durationSeconds: number;
  readonly speechSeconds: number;
  readonly speechFraction: number;
  /** Longest gap between two speech segments; 0 with fewer than two segments. */
  readonly longestPauseSeconds: number;
  readonly segments: readonly SpeechSegment[];
  /** Median pitch over the speech frames, Hz; null without speech. */
  readonly pitchHz: number | null;
}

function frameLevels(y: Float32Array, frameLength: number, count: number): Float32Array {
  const levels = new Float32Array(count);
  for (let f = 0; f < count; f++) {
    let energy = 0;
    for (let i = f * frameLength, end = i + frameLength; i < end; i++) energy += (y[i] as number) ** 2;
    levels[f] = Math.max(-120, 10 * Math.log10(energy / frameLength + 1e-14));
  }
  return levels;
}

/** Frames judged together: the context spans a second, so judging every 100 ms loses nothing. */
const blockFrames = 5;

/**
 * Marks frames that are voiced and, around them, vary in level and pitch as speech does. The pitch spread
 * is interquartile so that the few odd frames at a tone's onset do not make the tone look like intonation.
 */
function speechFrames(
  levels: Float32Array,
  pitches: Float32Array,
  voiced: Uint8Array,
  context: number,
  o: Required<SpeechDetectOptions>,
): Uint8Array {
  const speech = new Uint8Array(levels.length);
  const window = new Float32Array(2 * context + 1);
  for (let block = 0; block < levels.length; block += blockFrames) {
    const blockEnd = Math.min(levels.length, block + blockFrames);
    if (!voiced.subarray(block, blockEnd).includes(1)) continue;
    const centre = Math.min(levels.length - 1, block + (blockFrames >> 1));
    let lowLevel = Infinity;
    let highLevel = -Infinity;
    let count = 0;
    for (
      let g = Math.max(0, centre - context), end = Math.min(levels.length, centre + context + 1);
      g < end;
      g++
    ) {
      const level = levels[g] as number;
      if (level < lowLevel) lowLevel = level;
      if (level > highLevel) highLevel = level;
      if (voiced[g]) window[count++] = pitches[g] as number;
    }
    if (highLevel - lowLevel < o.minLevelRangeDb) continue;
    const sorted = window.subarray(0, count).sort();
    const spread = (sorted[(count * 3) >> 2] as number) / (sorted[count >> 2] as number) - 1;
    if (spread < o.minPitchVariation) continue;
    for (let f = block; f < blockEnd; f++) speech[f] = voiced[f] as number;
  }
  return speech;
}

/** Runs of speech frames with short gaps bridged; bursts shorter than the minimum are dropped. */
function segmentFrames(speech: Uint8Array, bridge: number, minimum: number): Array<[number, number]> {
  const runs: Array<[number, number, number]> = [];
  for (let f = 0; f < speech.length; f++) {
    if (!speech[f]) continue;
    const last = runs[runs.length - 1];
    if (last && f - last[1] <= bridge) {
      last[1] = f + 1;
      last[2]++;
    } else runs.push([f, f + 1, 1]);
  }
  return runs.filter((run) => run[2] >= minimum).map(([start, end]) => [start, end]);
}

/**
 * Finds speech in a mono signal: frames loud enough above the noise floor, periodic (voiced), and
 * varying in level and pitch within their context, so that silence, low noise, white or pink noise and
 * a steady tone or hum are not speech.
 *
 * @example
 * const report = detectSpeech(mono, 8000);
 * if (report.longestPauseSeconds > 5) console.log('pause too long');
 */
export function detectSpeech(
  signal: Float32Array,
  sampleRate: number,
  options: SpeechDetectOptions = {},
): SpeechReport {
  const o = { ...speechDetectDefaults, ...options };
  const durationSeconds = signal.length / sampleRate;
  const frameLength = Math.max(2, Math.round(sampleRate * o.frameSeconds)) & ~1;
  const frameSeconds = frameLength / sampleRate;
  const count = Math.floor(signal.length / frameLength);
  const y = highPass(signal, sampleRate);
  const levels = frameLevels(y, frameLength, count);
  const floor = Float32Array.from(levels).sort()[Math.floor(count * 0.1)] ?? -120;
  const threshold = Math.max(o.minLevelDb, floor + o.aboveFloorDb);
  const full = prepare(y);
  const half = prepare(halveRate(y));
  const pitches = new Float32Array(count);
  const voiced = new Uint8Array(count);
  for (let f = 0; f < count; f++) {
    if ((levels[f] as number) < threshold) continue;
    const previous = f > 0 && voiced[f - 1] ? (pitches[f - 1] as number) : 0;
    const { strength, pitchHz } = framePeriodicity(
      full,
      half,
      sampleRate,
      f * frameLength,
      frameLength,
      previous,
    );
    pitches[f] = pitchHz;
    voiced[f] = strength >= o.voicingThreshold ? 1 : 0;
  }
  const context = Math.round(o.contextSeconds / frameSeconds);
  const speech = speechFrames(levels, pitches, voiced, context, o);
  const runs = segmentFrames(
    speech,
    Math.round(o.bridgeSeconds / frameSeconds),
    Math.round(o.minSegmentSeconds / frameSeconds),
  );
  let speechFrameCount = 0;
  let longestPause = 0;
  const speechPitches: number[] = [];
  runs.forEach(([start, end], index) => {
    speechFrameCount += end - start;
    const previous = runs[index - 1];
    if (previous) longestPause = Math.max(longestPause, start - previous[1]);
    for (let f = start; f < end; f++) if (speech[f]) speechPitches.push(pitches[f] as number);
  });
  const speechSeconds = speechFrameCount * frameSeconds;
  return {
    durationSeconds,
    speechSeconds,
    speechFraction: durationSeconds > 0 ? speechSeconds / durationSeconds : 0,
    longestPauseSeconds: longestPause * frameSeconds,
    segments: runs.map(([start, end]) => ({
      startSeconds: start * frameSeconds,
      endSeconds: end * frameSeconds,
    })),
    pitchHz: median(speechPitches),
  };
}
