import type { AudioFormat, ReferenceVerdict } from '../openapi/contract.js';

/** Containers the analyser can recognise from the bytes (never from the file name). */
export type Container = 'wav' | 'mp3' | 'm4a' | 'ogg' | 'webm' | 'flac' | 'aac' | 'opus' | 'unknown';

/** A voice as the synthesizer sees it. System voices have fixed profiles; custom ones follow their reference. */
export interface VoiceProfile {
  readonly id: string;
  /** Median fundamental frequency in Hz. */
  readonly pitchHz: number;
  /** Vocal-tract scale: 1 is an average adult; below 1 is darker, above 1 brighter. */
  readonly formantScale: number;
  /** Syllables per second at speed 1. */
  readonly syllablesPerSecond: number;
  /** 0..1, the share of aspiration noise in voiced sounds. */
  readonly breathiness: number;
  /** Seed of this voice's idiosyncrasies; explicit so that output is deterministic. */
  readonly seed: number;
}

/** Tunables of the reference analysis; each has a documented default. */
export interface AnalyzeOptions {
  /** Longest allowed pause inside speech, seconds (the spec does not show it). */
  readonly maxPauseSeconds?: number;
  /** Least total speech a usable reference must contain, seconds. */
  readonly minSpeechSeconds?: number;
}

/** A recording the analysis accepts, with what it measured. */
export interface AnalysisAccepted {
  readonly ok: true;
  readonly container: Container;
  readonly codec: string | undefined;
  readonly durationSeconds: number;
  readonly sampleRate: number;
  readonly channels: number;
  /** True when samples were decoded and speech, pauses and pitch were measured; false when only the duration was read. */
  readonly decoded: boolean;
  readonly speechFraction: number | null;
  readonly speechSeconds: number | null;
  readonly longestPauseSeconds: number | null;
  /** Median pitch of the voiced frames, Hz; null when not measured. */
  readonly pitchHz: number | null;
}

/** A recording the analysis refuses, with the verdict that maps to the spec's code (contract.referenceVerdicts). */
export interface AnalysisRefused {
  readonly ok: false;
  readonly verdict: ReferenceVerdict;
  /** A sentence for the error_message, naming what was measured. */
  readonly reason: string;
  readonly container: Container;
  readonly durationSeconds?: number;
}

export type Analysis = AnalysisAccepted | AnalysisRefused;

/** What the synthesizer is asked to speak. */
export interface SynthesisRequest {
  readonly text: string;
  readonly voice: VoiceProfile;
  /** 0 or undefined: the default pace; 2 is about half as long. Negative values are the caller's to refuse. */
  readonly speed?: number;
  readonly emotion?: string;
  readonly language?: string;
  readonly format: AudioFormat;
  /** Output sample rate, Hz; default 24000. */
  readonly sampleRate?: number;
  /** Length of each streamed chunk in milliseconds of audio; default 100. */
  readonly chunkMs?: number;
}

/** A synthesis ready to stream: metadata up front, then the bytes chunk by chunk. */
export interface SynthesisStream {
  readonly format: AudioFormat;
  readonly mediaType: string;
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitDepth: number;
  readonly durationSeconds: number;
  /**
   * Exact total bytes, known before the first chunk: wav, pcm, and mp3 at the rates whose frames all
   * have one size (24 kHz among them, see mp3-frames.ts); undefined for mp3 at 11,025, 22,050 and 44,100 Hz.
   */
  readonly byteLength: number | undefined;
  /**
   * Each call starts a fresh, identical sequence of chunks. With `pauses`, a stream whose chunks are
   * long work (mp3: ~4–5 ms of encoding per 100 ms chunk) also yields empty arrays in the middle of a
   * chunk's work, where its reader may let others go on first (the mock's fair turns); the other
   * chunks, their bytes and their number stay the same. Without it, no chunk is ever empty.
   */
  chunks(options?: ChunkOptions): Generator<Uint8Array, void, void>;
}

/** How a reader of `SynthesisStream.chunks()` takes them. */
export interface ChunkOptions {
  /** Yield an empty array (a pause, not a chunk) between pieces of long work: skip it, or yield there. */
  readonly pauses?: boolean;
}
