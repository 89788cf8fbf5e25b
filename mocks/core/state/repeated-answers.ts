import type { OperationId } from '../../../openapi/contract.js';
import type { Answer } from '../answer/answer.js';
import type { Target } from '../request/target.js';

/** A request answered before, as the pipeline keeps it to answer its repeats (pipeline.ts, `repeatedAnswer`). */
export interface Repeat {
  /** The X-API-Key it was sent with, as sent. */
  readonly key: string;
  /** How it was handled (its answer), given again as it is. */
  readonly handled: { readonly answer: Answer; readonly operationId: OperationId | null };
  /** Whether the answer still holds (the operation says what it depends on: `OperationContext.repeatable`). */
  readonly holds: () => boolean;
}

/** At most this many request URLs have a repeat kept at once. */
const maxKeptTargets = 256;

/**
 * The last answer to a body-less GET per request URL (its parsed target), for the pipeline to give
 * again to the same request (same key, no Prefer) while it holds, without running its checks and its
 * operation again: the list polled by a client or a load test. Only targets the service keeps
 * (`caches.targets`) are keys here. Part of the service's caches: bounded, emptied by reset() and
 * restore(), and never changing an answer.
 */
export class RepeatedAnswers {
  private readonly kept = new Map<Target, Repeat>();

  get(target: Target): Repeat | undefined {
    return this.kept.get(target);
  }

  keep(target: Target, repeat: Repeat): void {
    if (this.kept.size >= maxKeptTargets && !this.kept.has(target)) this.kept.clear();
    this.kept.set(target, repeat);
  }

  /** How many request URLs have a repeat kept (for tests). */
  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
  }
}
