/**
 * What the synthesizer keeps from one request for the next, in one object its owner holds and may clear
 * (the mock's default engine holds one: `lazyAudioEngine().caches`). Every memo is bounded and holds
 * results of pure functions of the request, so a hit changes no byte; none holds audio. Beside them,
 * primed MP3 encoders (mp3-primed.ts). Nothing of the synthesizer or lamejs is loaded here, so the
 * mock can create one without loading either.
 */

import { CountMemo } from './count-memo.js';
import { PrimedMp3Encoders } from './mp3-primed.js';
import type { PlannedSize } from './utterance.js';
import type { CharAction, WordToken } from './vocabulary.js';

/**
 * Values by key, at most `capacity` of them; a new key in a full memo empties it first, which is cheaper
 * than ordering entries on every hit (the keys are words and characters, looked up per token).
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Keeps `value` under `key` and returns it. */
  set(key: string, value: V): V {
    if (this.values.size >= this.capacity) this.values.clear();
    this.values.set(key, value);
    return value;
  }

  clear(): void {
    this.values.clear();
  }

  get size(): number {
    return this.values.size;
  }
}

/** Values by key, at most `capacity` of them; the least recently used goes first. */
export class RecentMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      // Most recently used last, so the oldest is the first to go.
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  /** Keeps `value` under `key` and returns it. */
  set(key: string, value: V): V {
    this.values.delete(key);
    if (this.values.size >= this.capacity) this.values.delete(this.values.keys().next().value as string);
    this.values.set(key, value);
    return value;
  }

  clear(): void {
    this.values.clear();
  }

  get size(): number {
    return this.values.size;
  }
}

/**
 * The synthesizer's memos. Pass one to `synthesize`, `synthesizeToBytes`, `synthesizeSamples` or
 * `synthesizeStream` and identical work is done once across calls; pass none and each call works with
 * memos of its own, which are dropped with its result, so nothing is kept between calls.
 *
 * @example
 * const caches = new SynthesisCaches();
 * synthesize({ text: 'Hello there!', voice, format: 'wav' }, caches);
 * caches.size; // > 0: words, and the plan's parse and size
 * caches.clear(); // e.g. on the mock's reset
 */
export class SynthesisCaches {
  /**
   * The parse and exact sample count of the latest 16 stream plans, by everything that shapes the
   * timeline (not the format or the chunk length). Test suites and load tests send the same texts again
   * and again; a 5,000-character text costs ~0.2–0.4 ms to parse and count before its first byte, which an
   * identical request skips. A parsed 5,000-character text keeps ~28 KB (its tokens are references to
   * the words memo's, its phrases ranges of them; ~54 KB before they were).
   */
  readonly plans = new RecentMemo<PlannedSize>(16);
  /** The token (its syllables) of each word spelled in a text: up to 4,096 words, then emptied. */
  readonly words = new BoundedMemo<WordToken>(4096);
  /** What each character beyond ASCII does to a text: up to 4,096 characters, then emptied. */
  readonly characters = new BoundedMemo<CharAction>(4096);
  /**
   * What counting passes learned of syllables, for the next count: a new 2,000-character text of
   * words met before is counted 3–12 µs sooner (of ~80, in process; more for varied prose than for a
   * repeated sentence). About 8,192 syllables and consonants: a count that finds that many starts
   * it afresh.
   */
  readonly counts = new CountMemo(8192);
  /**
   * Unused MP3 encoders made ahead (~250 KB each), so that a stream does not make its own before its
   * first frame: up to 50, the streams at once of a load test (issue #25), made as mp3 streams end.
   */
  readonly primedMp3Encoders = new PrimedMp3Encoders(50);

  /** Forgets everything kept. Later results are the same bytes; only their first computation costs more. */
  clear(): void {
    this.plans.clear();
    this.words.clear();
    this.characters.clear();
    this.counts.clear();
    this.primedMp3Encoders.clear();
  }

  /** Entries kept in all memos together, primed encoders included. */
  get size(): number {
    return (
      this.plans.size +
      this.words.size +
      this.characters.size +
      this.counts.size +
      this.primedMp3Encoders.size
    );
  }
}
