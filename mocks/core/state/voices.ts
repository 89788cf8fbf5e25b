import type { VoiceProfile } from '../../../audio/types.js';

/**
 * The media types a voice's reference audio may have: one per container the analysis accepts. The
 * snapshot schema (snapshot.schema.json) holds the same list, so a restored or loaded voice cannot
 * be served as a page (text/html on the mock's origin could script the control API).
 */
export const voiceAudioMediaTypes = [
  'audio/wav',
  'audio/mpeg',
  'audio/mp4',
  'audio/ogg',
  'audio/webm',
] as const;

/** One custom voice. `sequence` orders the list (oldest first); `audioId` names its reference bytes in Storage. */
export interface VoiceRecord {
  voiceId: string;
  space: string;
  sequence: number;
  createdAt: number;
  /** Opaque reference used in the signed voice_url instead of the (non-unique across spaces) voice_id. */
  ref: string;
  audioId: string;
  audioMediaType: string;
  /** True when the reference bytes were fetched from a URL and belong to the voice alone. */
  ownsAudio: boolean;
  /** True for a voice POST /__mock/populate made (its recording generated); absent for a saved one. */
  populated?: boolean;
  account: string;
  profile: VoiceProfile;
}

export interface VoicesSnapshot {
  sequence: number;
  voices: VoiceRecord[];
  /** voice space → voice_id → the sequence the deleted voice had, so its cursor still resumes. */
  deleted: Record<string, Record<string, number>>;
}

/**
 * The custom voices, per voice space (organization + environment), in creation order.
 * An id being saved is reserved synchronously, so that of concurrent saves exactly one wins.
 *
 * @example
 * if (!voices.reserve(space, id)) return fail('voiceIdTaken');
 */
export class Voices {
  private sequence = 0;
  /** Moves on every change of what a list shows (a voice added or removed, a restore): a cache key. */
  private changes = 0;
  private live = new Map<string, VoiceRecord>();
  private deleted = new Map<string, number>();
  private pending = new Set<string>();

  private static key = (space: string, voiceId: string) => `${space}\u0000${voiceId}`;

  /** Reserves an id for a save in progress; false when it exists or another save holds it. */
  reserve(space: string, voiceId: string): boolean {
    const key = Voices.key(space, voiceId);
    if (this.live.has(key) || this.pending.has(key)) return false;
    this.pending.add(key);
    return true;
  }

  release(space: string, voiceId: string): void {
    this.pending.delete(Voices.key(space, voiceId));
  }

  /** Turns a reservation into a voice; the sequence it gets places it last in the list. */
  commit(record: Omit<VoiceRecord, 'sequence'>): VoiceRecord {
    const key = Voices.key(record.space, record.voiceId);
    this.pending.delete(key);
    this.sequence += 1;
    const voice = { ...record, sequence: this.sequence };
    this.live.set(key, voice);
    this.changes += 1;
    return voice;
  }

  find(space: string, voiceId: string): VoiceRecord | undefined {
    return this.live.get(Voices.key(space, voiceId));
  }

  findByRef(ref: string): VoiceRecord | undefined {
    for (const voice of this.live.values()) if (voice.ref === ref) return voice;
    return undefined;
  }

  remove(space: string, voiceId: string): VoiceRecord | undefined {
    const key = Voices.key(space, voiceId);
    const voice = this.live.get(key);
    if (!voice) return undefined;
    this.live.delete(key);
    this.deleted.set(key, voice.sequence);
    this.changes += 1;
    return voice;
  }

  /** The sequence of the newest voice ever made (kept by a durable store). */
  get lastSequence(): number {
    return this.sequence;
  }

  /** How many voices there are, in every space. */
  get count(): number {
    return this.live.size;
  }

  /** How many changes the voices have seen: equal versions list the same voices, cursors included. */
  get version(): number {
    return this.changes;
  }

  /** Every voice of every space, oldest first (for the state view). */
  all(): VoiceRecord[] {
    return [...this.live.values()].sort((a, b) => a.sequence - b.sequence);
  }

  /** The voices of a space, oldest first. */
  inSpace(space: string): VoiceRecord[] {
    return [...this.live.values()].filter((v) => v.space === space).sort((a, b) => a.sequence - b.sequence);
  }

  /** The sequence a deleted voice had, for resuming a list at a cursor that named it. */
  deletedSequence(space: string, voiceId: string): number | undefined {
    return this.deleted.get(Voices.key(space, voiceId));
  }

  /** Every audio id some voice still uses. */
  audioIds(): Set<string> {
    return new Set([...this.live.values()].map((v) => v.audioId));
  }

  snapshot(): VoicesSnapshot {
    const deleted: VoicesSnapshot['deleted'] = {};
    for (const [key, sequence] of this.deleted) {
      const cut = key.lastIndexOf('\u0000');
      const space = key.slice(0, cut);
      deleted[space] = { ...deleted[space], [key.slice(cut + 1)]: sequence };
    }
    return { sequence: this.sequence, voices: structuredClone([...this.live.values()]), deleted };
  }

  restore(snapshot: VoicesSnapshot): void {
    this.changes += 1;
    this.sequence = snapshot.sequence;
    this.pending.clear();
    this.live = new Map(structuredClone(snapshot.voices).map((v) => [Voices.key(v.space, v.voiceId), v]));
    this.deleted = new Map(
      Object.entries(snapshot.deleted).flatMap(([space, ids]) =>
        Object.entries(ids).map(([id, sequence]) => [Voices.key(space, id), sequence] as const),
      ),
    );
  }
}
