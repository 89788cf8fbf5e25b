/**
 * The one budget of bytes the proxy keeps for judging, shared by every exchange in flight. Each JSON
 * body is kept up to its own cap (2 MiB) until its exchange ends; with no total, 1,000 clients posting
 * 2 MiB bodies at once grew the proxy by +2.2 GB. Past the budget a body passes on unjudged, and its
 * exchange says so: the bytes always flow, only the judging waits for room.
 *
 * The default is 8 MiB: judging a kept body costs ~3.5 times its bytes for a moment (the body, its
 * text, its parsed value), and 1,000 exchanges in flight already cost the proxy ~100 MB of sockets and
 * buffers; with 64 MiB the 1,000-client case grew by ~350 MB, with 8 MiB by 156–177 MB. The contract's
 * own JSON bodies are small (a 10,000-character synthesis request is under 60 KB), so 8 MiB still
 * judges every body of a hundred such requests at once.
 */
/** The default budget: 8 MiB. */
export const defaultJudgeBytes = 8 * 1024 * 1024;

export class JudgeBudget {
  private used = 0;

  /** `limit`: the bytes all exchanges together may keep (default 8 MiB). */
  constructor(readonly limit: number = defaultJudgeBytes) {}

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
