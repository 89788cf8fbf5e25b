import type { Voices } from './voices.js';

/** The voices part of GET /__mock/state as JSON, for one version of the store, origin and expiry. */
export interface KeptVoices {
  /** The strong validator of this JSON: equal tags, equal bytes. */
  readonly tag: string;
  readonly json: string;
  readonly count: number;
}

/**
 * What GET /__mock/state keeps between polls (the dashboard reads it every second): the voices part,
 * signed and serialized once per version of the voice store, so that a poll with thousands of voices
 * costs a lookup instead of signing and serializing each one. A store made anew (reset, restore)
 * gets a new generation, so a tag is never reused for other voices. Part of the service's caches.
 */
export class StateViewCache {
  private generations = new WeakMap<Voices, number>();
  private nextGeneration = 1;
  private kept: (KeptVoices & { readonly key: string }) | undefined;

  /** The key of the voices part: the store's generation and version, the origin, the expiry. */
  keyOf(store: Voices, origin: string, expires: number): string {
    let generation = this.generations.get(store);
    if (generation === undefined) {
      generation = this.nextGeneration++;
      this.generations.set(store, generation);
    }
    return `${generation}.${store.version}.${expires}.${origin}`;
  }

  get(key: string): KeptVoices | undefined {
    return this.kept?.key === key ? this.kept : undefined;
  }

  keep(key: string, voices: KeptVoices): void {
    this.kept = { key, ...voices };
  }

  clear(): void {
    this.kept = undefined;
  }
}
