/** JSON form of the upload rate limiter: successful upload times per user, in ms of the mock clock. */
export type RateLimitSnapshot = Record<string, number[]>;

/** A slot taken before an upload runs; committed when the upload succeeds, released otherwise. */
export interface RateTicket {
  commit(nowMs: number): void;
  release(): void;
}

/**
 * A sliding-window limiter per user (§8: 30 uploads per user per hour, shared across that user's keys).
 * Only successful uploads count; an upload in flight holds a slot, so concurrent uploads can never
 * exceed the limit between them.
 *
 * @example
 * const ticket = limiter.take('user-1', clock.now()); if (!ticket) return fail('uploadRateLimited');
 */
export class UploadRateLimiter {
  private times = new Map<string, number[]>();
  private inFlight = new Map<string, number>();

  constructor(
    private readonly perWindow: number,
    private readonly windowMs: number,
  ) {}

  take(user: string, nowMs: number): RateTicket | undefined {
    const recent = (this.times.get(user) ?? []).filter((t) => t > nowMs - this.windowMs);
    this.times.set(user, recent);
    const pending = this.inFlight.get(user) ?? 0;
    if (recent.length + pending >= this.perWindow) return undefined;
    this.inFlight.set(user, pending + 1);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.inFlight.set(user, (this.inFlight.get(user) ?? 1) - 1);
      return true;
    };
    return {
      commit: (at) => {
        if (settle()) this.times.set(user, [...(this.times.get(user) ?? []), at]);
      },
      release: () => {
        settle();
      },
    };
  }

  /**
   * Seconds until the oldest counted upload leaves the window (for the 429 message and Retry-After);
   * at least 1: when uploads still in flight hold the last slots, no counted one has to age out.
   */
  retryAfterSeconds(user: string, nowMs: number): number {
    const oldest = (this.times.get(user) ?? []).find((t) => t > nowMs - this.windowMs);
    return oldest === undefined ? 1 : Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000));
  }

  /** The counted upload times of one user (what a durable store keeps of them). */
  timesOf(user: string): number[] {
    return [...(this.times.get(user) ?? [])];
  }

  snapshot(): RateLimitSnapshot {
    return Object.fromEntries([...this.times].map(([user, times]) => [user, [...times]]));
  }

  /** Uploads the user may still make in the current window, uploads in flight counted as made (for views, changes nothing). */
  remaining(user: string, nowMs: number): number {
    const recent = (this.times.get(user) ?? []).filter((t) => t > nowMs - this.windowMs).length;
    return Math.max(0, this.perWindow - recent - (this.inFlight.get(user) ?? 0));
  }

  /** Forgets the counted uploads of one user, or of everyone: a fresh window, as if an hour had passed. */
  clear(user?: string): void {
    if (user === undefined) this.times.clear();
    else this.times.delete(user);
  }

  restore(snapshot: RateLimitSnapshot): void {
    this.times = new Map(Object.entries(snapshot).map(([user, times]) => [user, [...times]]));
  }
}
