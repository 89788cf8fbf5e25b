import type { BytesAnswer } from '../answer/answer.js';
import type { VoiceRecord, Voices } from './voices.js';

/** A list answer kept for one voice space at one URL, with what else it depends on. */
export interface KeptAnswer {
  readonly space: string;
  /** The voice_url expiry second the answer was signed for. */
  readonly expires: number;
  /** The free clone uses left that it shows. */
  readonly remaining: number;
  answer: BytesAnswer | Promise<BytesAnswer>;
}

/** A voice's list entry as JSON, for one origin and voice_url expiry second. */
interface EntryJson {
  readonly origin: string;
  readonly expires: number;
  readonly json: string;
}

/** At most this many request URLs (origin, page size, cursor) have answers kept at once. */
const maxKeptUrls = 256;

/**
 * What the list (§4.3) keeps between requests so that a repeated page neither signs nor serializes its
 * voices again: whole answers per request URL for one version of the voice store, and each voice's
 * entry JSON. Answers are immutable, so one serves many requests; a change of the store's version (a
 * save, a delete, a restore) drops them all. Part of the service's caches: emptied by reset().
 */
export class ListAnswers {
  private version = -1;
  private store: Voices | undefined;
  private answers = new Map<string, KeptAnswer[]>();
  private entries = new WeakMap<VoiceRecord, EntryJson>();

  /** The answers kept for `url` in the store's current version (an empty list to fill when none). */
  forUrl(store: Voices, url: string): KeptAnswer[] {
    if (store !== this.store || store.version !== this.version) {
      this.store = store;
      this.version = store.version;
      this.answers.clear();
    }
    let kept = this.answers.get(url);
    if (!kept) {
      if (this.answers.size >= maxKeptUrls) this.answers.clear();
      kept = [];
      this.answers.set(url, kept);
    }
    return kept;
  }

  /** The entry JSON of a voice kept for this origin and expiry second, if any. */
  entry(voice: VoiceRecord, origin: string, expires: number): string | undefined {
    const kept = this.entries.get(voice);
    return kept?.expires === expires && kept.origin === origin ? kept.json : undefined;
  }

  keepEntry(voice: VoiceRecord, origin: string, expires: number, json: string): void {
    this.entries.set(voice, { origin, expires, json });
  }

  /** How many request URLs have answers kept (for tests and the control API). */
  get size(): number {
    return this.answers.size;
  }

  clear(): void {
    this.store = undefined;
    this.answers.clear();
    this.entries = new WeakMap();
  }
}
