/**
 * The one budget of bytes the proxy keeps for judging, shared by every exchange in flight. Each JSON
 * body is kept up to its own cap (2 MiB) until its exchange ends; with no total, 1,000 clients posting
 * 2 MiB bodies at once grew the proxy by +2.2 GB. Past the budget a body passes on unjudged, and its
 * exchange says so: the bytes always flow, only the judging waits for room.
 */
export class JudgeBudget {
  private used = 0;

  /** `limit`: the bytes all exchanges together may keep (default 64 MiB). */
  constructor(readonly limit: number = 64 * 1024 * 1024) {}

  /** Takes `bytes` from the budget when there is room for all of them; false (and nothing taken) if not. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  /** Gives back `bytes` taken before. */
  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  /** The bytes kept now. */
  get inUse(): number {
    return this.used;
  }
}

/** The note of an exchange whose body the budget had no room for. */
export const budgetNote = 'not judged: in-flight budget exhausted';
