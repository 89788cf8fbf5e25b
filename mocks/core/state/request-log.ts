import type { OperationId } from '../../../openapi/contract.js';

/** How a streamed answer went out, as the adapter that wrote it measured it. */
export interface StreamTiming {
  /** Milliseconds from the request's arrival to its first body chunk handed to the socket. */
  ttfbMs: number;
  chunks: number;
  bytes: number;
  /** Milliseconds from the request's arrival to the end of the body. */
  durationMs: number;
  /** False when the body stopped early (the client went away, a fault cut it). */
  complete: boolean;
}

/** One line of GET /__mock/requests. */
export interface RequestLogEntry {
  /** Numbers every request of this log, from 1, never reused (not even after a reset): `?after=N` reads on from N. */
  seq: number;
  /** Unix seconds of the mock clock. */
  at: number;
  method: string;
  /** The routed path (its first 1,024 characters). */
  path: string;
  /** The X-API-Key sent, masked (`maskKey`: `mock…ging`), or null without one. */
  key: string | null;
  status: number;
  operationId: OperationId | null;
  /** Milliseconds the service took to make the answer (the whole answer for bytes in memory). */
  durationMs: number | null;
  /**
   * The envelope's error_code and error_message of a refusal (the message's first 1,024 characters:
   * some echo the input, up to a 1 MiB body); null on success and for audio.
   */
  errorCode: number | null;
  errorMessage: string | null;
  /** For a body sent in chunks: measured by the adapter that sent it, null until it ends (or under MSW). */
  stream: StreamTiming | null;
  /** The JSON body of a synthesis request (up to 4,096 characters), which POST /__mock/requests/replay sends again; else null. */
  body: string | null;
}

/** What sending a logged request again takes: its whole key (never listed) and its body. */
export interface Replay {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: string;
}

/** The longest body the log keeps for a replay: the ring stays under ~1 MB at its default 200 entries. */
export const replayBodyMaxChars = 4096;

/** The longest error message the log keeps: a message that echoes a 1 MiB voice_id must not be kept 200 times. */
export const logMessageMaxChars = 1024;

/**
 * `text` cut to `max` characters with an ellipsis, as a string of its own: a slice of a long string
 * keeps the whole of it alive, so 200 log entries that echo 16 KB paths kept 200 of those.
 */
function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${Array.from(text.slice(0, max - 1)).join('')}…`;
}

/** The fields of a synthesis body (§2.4) a replay sends again; whatever else it held changed nothing. */
const replayFields = ['generate_text', 'language', 'voice_id', 'speed', 'emotion_class', 'audio_format'];

/**
 * The JSON a replay sends: the known synthesis fields of `body` whose values are scalars, so that no
 * body can make logging throw (a field nested 5,000 deep overflowed JSON.stringify's stack and
 * dropped the connection after the characters were billed). Undefined for a body that is no object.
 */
function replayText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const known: Record<string, unknown> = {};
  for (const field of replayFields) {
    const value = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) known[field] = value;
  }
  return JSON.stringify(known);
}

/** What the service knows of a request when it logs it; the log numbers it. */
export type NewRequestLogEntry = Omit<RequestLogEntry, 'seq' | 'stream' | 'body'>;

/**
 * A key as the log shows it: its ends, enough to tell configured keys apart (`mock-key-staging` →
 * `mock…ging`, `mock-key` → `mo…ey`), never the middle, so a screenshot of the dashboard or a pasted
 * log leaks no usable key. Keys shorter than 8 characters show nothing.
 */
export function maskKey(key: string | null): string | null {
  if (key === null) return null;
  if (key.length < 8) return '…';
  const ends = key.length < 12 ? 2 : 4;
  return `${key.slice(0, ends)}…${key.slice(-ends)}`;
}

/**
 * The most recent requests, oldest first, bounded so a long-running mock does not grow.
 *
 * @example
 * const entry = log.add({ at, method: 'GET', path: '/v1/voice/list', key: 'mock…', status: 200, operationId: 'listVoices', durationMs: 1, errorCode: null, errorMessage: null });
 */
export class RequestLog {
  // A ring: adding to a full log overwrites the oldest entry instead of shifting the whole array,
  // which every request did before.
  private entries: RequestLogEntry[] = [];
  private oldest = 0;
  private lastSeq = 0;
  private clears = 0;
  /** The entry of each streamed answer still being sent, for the adapter's timing (weak: no growth). */
  private readonly sending = new WeakMap<object, RequestLogEntry>();
  /** The key and body of replayable entries, beside them (weak: they go when the entry leaves the ring). */
  private readonly replays = new WeakMap<RequestLogEntry, Replay>();

  constructor(private readonly capacity: number) {}

  /**
   * Logs a request; the entry is kept (and numbered) only while the log has room for any. `streamed`
   * is the answer whose body is still to be sent in chunks: `measured(streamed, …)` completes the entry.
   */
  add(fields: NewRequestLogEntry, streamed?: object, sent?: { key: string; body: unknown }): RequestLogEntry {
    this.lastSeq += 1;
    const body = sent === undefined ? undefined : replayText(sent.body);
    const kept = body !== undefined && body.length <= replayBodyMaxChars ? body : null;
    const entry: RequestLogEntry = { seq: this.lastSeq, ...fields, stream: null, body: kept };
    entry.path = shortened(entry.path, logMessageMaxChars);
    if (entry.errorMessage !== null) entry.errorMessage = shortened(entry.errorMessage, logMessageMaxChars);
    if (streamed !== undefined) this.sending.set(streamed, entry);
    if (sent !== undefined && kept !== null)
      this.replays.set(entry, { method: fields.method, path: fields.path, key: sent.key, body: kept });
    if (this.capacity === 0) return entry;
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return entry;
    }
    this.entries[this.oldest] = entry;
    this.oldest = (this.oldest + 1) % this.capacity;
    return entry;
  }

  /**
   * Adds what an adapter measured of a streamed body once it ended. The entry may have left the ring
   * meanwhile: then nothing is kept (the log stays bounded).
   */
  measured(streamed: object, timing: StreamTiming): void {
    const entry = this.sending.get(streamed);
    if (!entry) return;
    this.sending.delete(streamed);
    entry.stream = { ...timing };
  }

  /** The entries oldest first; only those numbered above `after` when it is given. */
  list(after = 0): RequestLogEntry[] {
    const ordered = [...this.entries.slice(this.oldest), ...this.entries.slice(0, this.oldest)];
    return ordered
      .filter((entry) => entry.seq > after)
      .map((entry) => ({ ...entry, stream: entry.stream && { ...entry.stream } }));
  }

  /** How to send a logged request again; undefined when it is not in the log or keeps no body. */
  replay(seq: number): Replay | undefined {
    const entry = this.entries.find((e) => e.seq === seq);
    return entry && this.replays.get(entry);
  }

  /** The number of the last request logged (0 before any), and how many times the log was emptied. */
  get position(): { lastSeq: number; clears: number; size: number; capacity: number } {
    return { lastSeq: this.lastSeq, clears: this.clears, size: this.entries.length, capacity: this.capacity };
  }

  clear(): void {
    this.entries = [];
    this.oldest = 0;
    this.clears += 1;
  }
}
