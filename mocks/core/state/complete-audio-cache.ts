import type { SynthesisRequest, SynthesisStream } from '../../../audio/types.js';

/** A complete synthesis: what its headers need, and its bytes. */
export interface CompleteAudio {
  readonly meta: Pick<SynthesisStream, 'mediaType' | 'sampleRate' | 'channels' | 'bitDepth'>;
  readonly bytes: Uint8Array<ArrayBuffer>;
}

/** The cache holds at most this many bytes of audio in all... */
export const completeCacheMaxBytes = 16 * 1_048_576;
/** ...and keeps no result larger than this (a 10,000-character mp3 is ~7 MiB; long wav/pcm render fast). */
export const completeCacheMaxEntryBytes = 8 * 1_048_576;

/**
 * A small LRU of complete synthesis results, bounded by bytes. The synthesizer is deterministic, so the
 * same request always gives the same bytes: the cache only saves CPU (an mp3 encodes at ~20× real
 * time), it never changes an answer.
 *
 * @example
 * const cache = new CompleteAudioCache();
 * cache.get(CompleteAudioCache.key(request)) ?? cache.set(key, await build());
 */
export class CompleteAudioCache {
  private entries = new Map<string, CompleteAudio>();
  private size = 0;

  constructor(
    private readonly maxBytes = completeCacheMaxBytes,
    private readonly maxEntryBytes = completeCacheMaxEntryBytes,
  ) {}

  /** Whether an answer of this many bytes would be kept: one that is not is never worth collecting. */
  keeps(byteLength: number): boolean {
    return byteLength <= this.maxEntryBytes;
  }

  /** The request after defaults (voice resolved to its profile, format chosen), as a key. */
  static key(request: SynthesisRequest): string {
    const { text, voice, format, speed, emotion, language, sampleRate, chunkMs } = request;
    return JSON.stringify([text, voice, format, speed, emotion, language, sampleRate, chunkMs]);
  }

  get(key: string): CompleteAudio | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used goes last; eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CompleteAudio): CompleteAudio {
    if (!this.keeps(value.bytes.byteLength)) return value;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.size -= previous.bytes.byteLength;
    }
    this.entries.set(key, value);
    this.size += value.bytes.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= entry.bytes.byteLength;
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }

  get byteSize(): number {
    return this.size;
  }

  get count(): number {
    return this.entries.size;
  }
}
