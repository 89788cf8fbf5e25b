import type { MockSnapshot } from '../state/mock-state.js';
import type { Storage } from './storage.js';

/** Storage that keeps the objects a snapshot refers to, so the snapshot can be restored after a reset. */
export interface PinnedStorage extends Storage {
  /** Keeps these objects until the storage closes: remove() and clear() pass them by. */
  pin(ids: Iterable<string>): void;
  /** How many objects are pinned (for tests and the control API). */
  readonly pinnedCount: number;
  /** A mark of the writes so far, for removeDropped(). */
  stamp(): number;
  /**
   * Removes the objects of `ids` (unpinned) unless one was written again since `since`: what a reset
   * dropped. Objects of writes in flight are never among them, so an upload or a save that races a
   * reset and lands after it keeps its bytes, even when its key repeats an old one.
   */
  removeDropped(ids: Iterable<string>, since: number): Promise<void>;
}

/** The stored objects a snapshot refers to: its uploads and its voices' reference audio. */
export function snapshotObjectIds(snapshot: MockSnapshot): Set<string> {
  return new Set([
    ...snapshot.uploads.records.map((record) => record.objectKey),
    ...snapshot.voices.voices.map((voice) => voice.audioId),
  ]);
}

/**
 * Wraps a storage so that a snapshot's bytes outlive a reset or a voice deletion: every snapshot taken
 * pins the objects it refers to, and clear() removes only the objects written through this wrapper
 * that no snapshot pinned. Memory stays bounded by what the mock held at the time of some snapshot;
 * close() frees everything.
 *
 * @example
 * const storage = pinnedStorage(memoryStorage());
 * storage.pin(snapshotObjectIds(state.snapshot()));
 */
export function pinnedStorage(inner: Storage): PinnedStorage {
  const known = new Set<string>();
  const pinned = new Set<string>();
  let writes = 0;
  /** The stamp of the last write of each id (forgotten with the object). */
  const writtenAt = new Map<string, number>();
  return {
    create(id) {
      writtenAt.set(id, ++writes);
      const writer = inner.create(id);
      return {
        write: (chunk) => writer.write(chunk),
        abort: () => writer.abort(),
        async close() {
          await writer.close();
          known.add(id);
        },
      };
    },
    read: (id) => inner.read(id),
    async remove(id) {
      if (pinned.has(id)) return;
      known.delete(id);
      writtenAt.delete(id);
      await inner.remove(id);
    },
    stamp: () => writes,
    async removeDropped(ids, since) {
      for (const id of ids) {
        if ((writtenAt.get(id) ?? 0) > since || pinned.has(id)) continue;
        known.delete(id);
        writtenAt.delete(id);
        await inner.remove(id);
      }
    },
    async clear() {
      const unpinned = [...known].filter((id) => !pinned.has(id));
      for (const id of unpinned) known.delete(id);
      await Promise.all(unpinned.map((id) => inner.remove(id)));
    },
    async close() {
      known.clear();
      pinned.clear();
      writtenAt.clear();
      await inner.close();
    },
    pin(ids) {
      for (const id of ids) pinned.add(id);
    },
    get pinnedCount() {
      return pinned.size;
    },
  };
}
