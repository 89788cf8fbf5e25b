import type { UploadRecord } from './uploads.js';
import type { VoiceRecord } from './voices.js';

/**
 * The decisions that must be one for the whole state, whoever asks: one winner of racing saves of an
 * id, a free use spent once, an upload quota never exceeded. A mock alone decides them in its memory
 * (local-decisions.ts: the in-memory and SQLite stores); a store shared by several mocks decides
 * them itself, in its transactions (StateStore.shared). Every one resolves once its result is stored.
 */
export interface StateDecisions {
  /** Holds a voice id for a save in progress; undefined when the id exists or another save holds it. */
  claimVoice(space: string, voiceId: string): Promise<VoiceClaim | undefined>;
  /** A slot of the user's hourly upload quota, held while the upload runs; or when to retry. */
  takeUpload(user: string, nowMs: number): Promise<UploadSlot | { retryAfterSeconds: number }>;
  /** A number never handed out before by this state, for deriving the next object key. */
  nextUploadSequence(): Promise<number>;
  /** Removes a voice; undefined when the space holds none of that id. */
  deleteVoice(space: string, voiceId: string): Promise<VoiceRecord | undefined>;
  /** Counts synthesized characters against an account. */
  chargeCharacters(account: string, characters: number): Promise<void>;
  /**
   * Adds made voices at once (populate), last in the list: those it added. An id another mock of a
   * shared state took meanwhile is left to that voice (a mock alone reserved its ids before).
   */
  addVoices(records: readonly Omit<VoiceRecord, 'sequence'>[]): Promise<VoiceRecord[]>;
}

/** A voice id held for one save. */
export interface VoiceClaim {
  /**
   * Creates the voice, last in the list, and spends a free use of its account or records a charged
   * creation. Undefined when another mock of a shared state saved the id first.
   */
  save(record: Omit<VoiceRecord, 'sequence'>): Promise<VoiceRecord | undefined>;
  /** Gives the id back (after the save, or when it failed). */
  release(): void;
}

/** A held slot of a user's upload quota. */
export interface UploadSlot {
  /** Counts the upload and keeps its record; or when to retry, when the quota was spent meanwhile. */
  commit(record: UploadRecord, nowMs: number): Promise<{ retryAfterSeconds: number } | undefined>;
  /** Gives the slot back: the upload failed. */
  release(): void;
}

/** The rules decisions follow, from the mock's config (every mock of a shared store has the same). */
export interface DecisionRules {
  /** Creations of an account that are free (§4.2 rule 3). */
  readonly freeCloneUses: number;
  /** Successful uploads of a user per window (§8). */
  readonly uploadsPerHour: number;
  readonly uploadWindowMs: number;
}
