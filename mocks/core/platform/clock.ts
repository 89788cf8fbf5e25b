/**
 * The mock's only source of time. Adapters inject one; the core never reads the system time itself,
 * so tests (and `POST /__mock/clock/advance`) decide what "now" is.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Moves this clock forward; rate-limit windows and signed URLs see the jump at once. */
  advance(ms: number): void;
  /** Back to where it started (a mock reset); a clock without one keeps its time. */
  reset?(): void;
}

/**
 * The latest time the mock's clock may show, 9999-12-31T23:59:59Z: every feature keeps working up to
 * it (ISO dates keep four digits, created_at and voice_url expiries stay integers of at most 12 digits).
 */
export const latestClockMs = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * Why the clock may not be moved by `ms` from `now`, or undefined when it may.
 *
 * @example
 * clockMoveProblem(clock.now(), 3_600_000); // undefined
 */
export function clockMoveProblem(now: number, ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms < 0)
    return 'the clock moves forward only: seconds must be a finite number >= 0';
  if (now + ms > latestClockMs) {
    const room = Math.max(0, Math.floor((latestClockMs - now) / 1000));
    return `the clock may go up to 9999-12-31T23:59:59Z; it can move at most ${room} more seconds`;
  }
  return undefined;
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
    reset: () => {
      now = startMs;
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
    reset: () => {
      offset = 0;
    },
  };
}

/** Unix seconds of a clock reading, as created_at and signed URLs use them. */
export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);
