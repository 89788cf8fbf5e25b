/**
 * The options of runConformance, as a type only: the run reads them, options-check.ts checks them
 * before anything starts, the CLI builds them from flags and variables.
 */
import type { ConformanceCase } from '../toolkit/context.js';
import type { FetchLike } from '../toolkit/http.js';
import type { FixtureFile, PcmHeaderNames } from '../toolkit/run-state.js';
import type { ExtraKeyName, IncludeName, ProgressEvent } from '../types.js';

/** Options of a run; only `baseUrl` and `apiKey` matter for a real deployment. */
export interface RunOptions {
  /** The deployment to test. Omitted: the kit's mock is started on a free port and tested. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Extra keys that unlock the scoping and capability cases. */
  readonly keys?: { readonly [K in ExtraKeyName]?: string };
  /** Run the cases that create voices (each consumes a free use or is charged). */
  readonly allowBillable?: boolean;
  /** Opt-in groups: rate-limit, large-upload, many-voices. */
  readonly include?: readonly IncludeName[];
  /** Case id patterns (`upload.*`, `*flac*`, or substrings); empty runs everything. */
  readonly only?: readonly string[];
  /** The positive reference recording: a file path or bytes. Default: the kit's valid 10 s fixture. */
  readonly referenceAudio?: string | FixtureFile;
  /**
   * A publicly reachable http(s) URL of a 3–60 s reference recording, for `voice-save.reference.url`.
   * Against the embedded mock the run serves the reference recording on a loopback server itself.
   */
  readonly referenceUrl?: string;
  /** Custom fetch (MSW-backed, a mock service's in-process fetch, a proxy...). */
  readonly fetch?: FetchLike;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** PCM header names to look for first (the spec does not name them). */
  readonly pcmHeaders?: Partial<PcmHeaderNames>;
  /**
   * Spend the probes a calibration profile needs (docs/calibration.md): the longest generate_text is
   * found by bisection (up to 20 streamed requests, ~75,000 characters accepted against a limit of
   * 10,000) instead of four fixed lengths. `voice-kit conformance --write-profile` sets it. Default false.
   */
  readonly calibrate?: boolean;
  /** Treat the target as the kit's mock (mock-only cases run). Default: true only for the embedded mock. */
  readonly targetIsMock?: boolean;
  /** Responses come over real HTTP (Transfer-Encoding visible). Default: true unless `fetch` is given. */
  readonly httpTransport?: boolean;
  /** The clock created_at is judged against, ms since the epoch. Default: the system clock. */
  readonly now?: () => number;
  /** The run prefix of created voice ids (`vk_<6 hex>_`). Default: random. */
  readonly runPrefix?: string;
  /** Replace the case list (tests of the runner). */
  readonly cases?: readonly ConformanceCase[];
  /**
   * Ask the run to finish: requests in flight are cancelled, no further case starts, the voices of the
   * run are deleted (bounded in time and count) and the run resolves with what was judged (`aborted`).
   */
  readonly signal?: AbortSignal;
  /**
   * Seconds each request may take, head and body (default 30): a deployment that stops answering
   * fails the case that waits on it ("no complete answer within 30 s") instead of holding the run.
   */
  readonly requestTimeoutSeconds?: number;
}
