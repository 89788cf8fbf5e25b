/**
 * The mock's only source of time. Adapters inject one; the core never reads the system time itself,
 * so tests (and `POST /__mock/clock/advance`) decide what "now" is.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Moves this clock forward; rate-limit windows and signed URLs see the jump at once. */
  advance(ms: number): void;
}

/** 2026-01-01T00:00:00Z: the default start of a manual clock, so fresh mocks agree on created_at. */
export const defaultEpochMs = 1_767_225_600_000;

/**
 * A clock that moves only when told to: the default of the in-process and MSW mocks.
 *
 * @example
 * const clock = manualClock(); clock.advance(3_600_000); // one hour later
 */
export function manualClock(startMs: number = defaultEpochMs): Clock {
  let now = startMs;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * A clock that follows a real time source plus whatever was advanced: what the Node server uses.
 *
 * @example
 * const clock = offsetClock(() => Date.now());
 */
export function offsetClock(source: () => number): Clock {
  let offset = 0;
  return {
    now: () => source() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Unix seconds of a clock reading, as created_at and signed URLs use them. */
export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);
