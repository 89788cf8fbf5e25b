/**
 * List walks per voice scope: a first page opens a walk, each `next_voice_id` the deployment gave
 * continues it. A walk is comparable while nothing was written to its scope since it opened: then each
 * page's size and `has_more` follow from the number of voices, and its end shows every voice once.
 */

export interface Walk {
  readonly space: string;
  readonly pageSize: number;
  /** The page this walk is at (0 for the first). */
  readonly page: number;
  /** The scope's write count when the walk opened. */
  readonly writesAtStart: number;
  /** Voices live in the model when the walk opened. */
  readonly liveAtStart: ReadonlySet<string>;
  /** Voice ids listed so far, in order. */
  readonly seen: readonly string[];
}

/** Cursors kept at most per oracle (oldest dropped first). */
const cursorCap = 1_000;

export class Walks {
  private readonly writes = new Map<string, number>();
  private readonly cursors = new Map<string, Walk>();

  writesTo(space: string): number {
    return this.writes.get(space) ?? 0;
  }

  noteWrite(space: string): void {
    this.writes.set(space, this.writesTo(space) + 1);
  }

  /** The walk a page belongs to: a new one without a cursor; the one that gave the cursor, if any. */
  walkOf(space: string, cursor: string | null, pageSize: number, live: () => Set<string>): Walk | undefined {
    if (cursor === null)
      return { space, pageSize, page: 0, writesAtStart: this.writesTo(space), liveAtStart: live(), seen: [] };
    return this.cursors.get(`${space}\u0000${cursor}`);
  }

  comparable(w: Walk): boolean {
    return w.writesAtStart === this.writesTo(w.space);
  }

  /** The walk after this page; its cursor kept when the page has more. */
  advance(w: Walk, ids: readonly string[], next: string | undefined): Walk {
    const after: Walk = { ...w, page: w.page + 1, seen: [...w.seen, ...ids] };
    if (next !== undefined) {
      if (this.cursors.size >= cursorCap) this.cursors.delete(this.cursors.keys().next().value as string);
      this.cursors.set(`${w.space}\u0000${next}`, after);
    }
    return after;
  }
}

/** page_size as the contract reads it, or undefined when it is outside 1..20 (open: the model is not asked). */
export function pageSizeOf(query: URLSearchParams): number | undefined {
  const raw = query.get('page_size');
  if (raw === null) return 20;
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= 20 ? n : undefined;
}
