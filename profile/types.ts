/**
 * A calibration profile: what one deployment chose on the points the spec leaves open, each with the
 * exchange(s) that showed it. Written by the suite and the proxy, read by the mock (docs/calibration.md).
 */
import type { AudioFormat } from '../openapi/contract.js';
import type { PointId } from './points.js';

/** The `kind` every profile file carries, and the one version this kit reads and writes. */
export const profileKind = 'voice-kit-profile';
export const profileVersion = 1;

/** How a refusal is answered: its HTTP status (4xx) and its business error_code. */
export interface RefusalChoice {
  readonly status: number;
  readonly error_code: number;
}

/** The status of a refusal whose error_code the spec states (the voice-creation codes of §7.2). */
export interface StatusChoice {
  readonly status: number;
}

/**
 * The `data` of a success answer, as observed, with every string equal to the voice id the request
 * named (normalized) written as the placeholder `{voice_id}`.
 */
export interface DataChoice {
  readonly data: unknown;
}

/** Deleting a voice that is already missing: a success (status 200) or a refusal. */
export type DeleteMissingChoice = { readonly status: 200 } | RefusalChoice;

export interface ListOrderChoice {
  readonly order: 'oldest-first' | 'newest-first';
}

/** Names of the three PCM headers. */
export interface PcmHeadersChoice {
  readonly sampleRate: string;
  readonly channels: string;
  readonly bitDepth: string;
}

/** The format answered when `audio_format` is omitted, per endpoint (only what was observed). */
export interface DefaultFormatChoice {
  readonly complete?: AudioFormat;
  readonly stream?: AudioFormat;
}

export interface TextAliasChoice {
  readonly accepted: boolean;
}

/** The longest generate_text accepted, in characters (seen accepted at this length, refused at one more). */
export interface MaxTextLengthChoice {
  readonly characters: number;
}

/** Whether an upload refused for its rate (429) says when to retry. */
export interface RetryAfterChoice {
  readonly header: boolean;
}

/** Whether exactly 3 s (`shortest`) and exactly 60 s (`longest`) are accepted (only what was observed). */
export interface DurationBoundsChoice {
  readonly shortest?: 'inclusive' | 'exclusive';
  readonly longest?: 'inclusive' | 'exclusive';
}

export type Choice =
  | RefusalChoice
  | StatusChoice
  | DataChoice
  | DeleteMissingChoice
  | ListOrderChoice
  | PcmHeadersChoice
  | DefaultFormatChoice
  | TextAliasChoice
  | MaxTextLengthChoice
  | RetryAfterChoice
  | DurationBoundsChoice;

/** One exchange that showed a choice. */
export interface Evidence {
  /** The exchange's number in the run or proxy session (reports and HAR name the same). */
  readonly exchange: number;
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  readonly status: number;
  readonly error_code?: number;
  /** The conformance case that sent it, when a case did. */
  readonly case?: string;
}

/** One point of a profile. */
export interface ProfileEntry {
  /** The `x-open-question` id the point belongs to (several points may share one). */
  readonly question: string;
  readonly choice: Choice;
  /** The exchanges that showed it (always written; a hand-written profile may leave it out). */
  readonly evidence?: readonly Evidence[];
}

/** A point seen answered two ways in one run: written down, never applied. */
export interface UnsettledPoint {
  readonly point: PointId;
  readonly choices: readonly Choice[];
  readonly evidence: readonly Evidence[];
}

export interface Profile {
  readonly kind: typeof profileKind;
  readonly version: typeof profileVersion;
  /** Who wrote it, against what, when (ISO 8601), with which kit version. Informational. */
  readonly observed?: {
    readonly by?: 'conformance' | 'proxy';
    readonly target?: string;
    readonly at?: string;
    readonly kit?: string;
  };
  /** Only points the run observed; a point absent here keeps the mock's own choice. */
  readonly points: Partial<Readonly<Record<PointId, ProfileEntry>>>;
  readonly unsettled?: readonly UnsettledPoint[];
}
