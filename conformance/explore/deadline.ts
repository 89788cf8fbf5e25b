/**
 * The explorer's clock for its requests: every request (setup, sequences, shrinking, cleanup) goes out
 * with a deadline of what is left of --max-time, and at most the per-request timeout. The last part of
 * --max-time (a fifth, at most {@link cleanupGraceMs}) is kept for the cleanup: the sequences end
 * before it, and the cleanup gets what is left once they are over. Asked to finish (its signal), the
 * cleanup gets the grace at most; requests already in flight keep to the new deadline too. So a
 * deployment that stops answering ends the exploration, cleanup included, within --max-time (or the
 * grace after a Ctrl-C).
 */
import {
  defaultRequestTimeoutSeconds,
  type FetchLike,
  RequestTimeoutError,
  withTimeout,
} from '../toolkit/http.js';

/** What the cleanup may still take once the run was asked to finish, and at most what it keeps of --max-time. */
export const cleanupGraceMs = 5_000;

/** The part of --max-time kept for the cleanup: a fifth of it, at most {@link cleanupGraceMs}. */
export function cleanupReserveMs(maxTimeMs: number): number {
  return Math.min(cleanupGraceMs, maxTimeMs / 5);
}
/** Deletes the final sweep may send beyond the voices the run itself created. */
export const sweepMargin = 10;

export class Deadline {
  /** Every request of the exploration goes through it. */
  readonly fetch: FetchLike;
  private readonly perRequestMs: number;
  private passed = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the sequences must be over: the end less the cleanup's reserve. */
  private until: number;

  /** `end`: when everything, the cleanup included, is over (the start plus --max-time). */
  constructor(
    private readonly end: number,
    options: {
      readonly fetch?: FetchLike;
      readonly requestTimeoutSeconds?: number;
      readonly signal?: AbortSignal;
    },
  ) {
    this.until = end - cleanupReserveMs(Math.max(0, end - performance.now()));
    this.perRequestMs = (options.requestTimeoutSeconds ?? defaultRequestTimeoutSeconds) * 1000;
    const base = options.fetch ?? ((req: Request) => fetch(req));
    this.fetch = withTimeout(
      base,
      () => Math.min(this.perRequestMs, this.msLeft()),
      () => this.passed.signal,
    );
    this.schedule();
    options.signal?.addEventListener('abort', () => this.cleanup(true), { once: true });
  }

  /** Milliseconds left before the deadline (0 when past it). */
  msLeft(): number {
    return Math.max(0, this.until - performance.now());
  }

  /** The sequences are over (or the run was asked to finish): the cleanup's deadline. */
  cleanup(asked: boolean): void {
    this.until = asked ? Math.min(this.end, performance.now() + cleanupGraceMs) : this.end;
    if (!asked && this.passed.signal.aborted) this.passed = new AbortController();
    this.schedule();
  }

  /** No request goes out any more: the timer goes. */
  dispose(): void {
    clearTimeout(this.timer);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const ms = this.msLeft();
    const passed = this.passed;
    this.timer = setTimeout(() => passed.abort(new RequestTimeoutError(Math.ceil(ms))), ms);
    this.timer.unref?.();
  }
}
