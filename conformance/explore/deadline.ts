/**
 * The explorer's clock for its requests: every request (setup, sequences, shrinking, cleanup) goes out
 * with a deadline of what is left of --max-time, and at most the per-request timeout. Once the
 * sequences are over, or as soon as the run is asked to finish (its signal), the cleanup gets what is
 * left, or a short grace when that is less (on Ctrl-C, the grace only); requests already in flight
 * keep to the new deadline too. So a deployment that stops answering ends the exploration within
 * --max-time and the grace.
 */
import {
  defaultRequestTimeoutSeconds,
  type FetchLike,
  RequestTimeoutError,
  withTimeout,
} from '../toolkit/http.js';

/** What the cleanup may still take once the time is up or the run was asked to finish. */
export const cleanupGraceMs = 5_000;
/** Deletes the final sweep may send beyond the voices the run itself created. */
export const sweepMargin = 10;

export class Deadline {
  /** Every request of the exploration goes through it. */
  readonly fetch: FetchLike;
  private readonly perRequestMs: number;
  private passed = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private until: number,
    options: {
      readonly fetch?: FetchLike;
      readonly requestTimeoutSeconds?: number;
      readonly signal?: AbortSignal;
    },
  ) {
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
    const grace = performance.now() + cleanupGraceMs;
    this.until = asked ? Math.min(this.until, grace) : Math.max(this.until, grace);
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
