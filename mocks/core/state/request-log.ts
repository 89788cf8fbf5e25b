import { maskSecret, maskUrl } from '../../../common/secrets.js';
import type { OwnChoices } from '../../../judge/judge.js';
import type { OperationId } from '../../../openapi/contract.js';
import { type AnswerCheck, answerCheckOf } from './answer-check.js';
import { type KeptExchange, sameExchange, shortened } from './exchange.js';
import { forcedBy, warningsOf } from './forced.js';

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
  /** The X-API-Key sent, masked (`maskKey`: `mo…ng`), or null without one. */
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
  /** The URL's query with its `?` ('' without one), its first 2,048 characters: the path above has none. */
  query: string;
  /** The `Prefer` directives that made this answer (`code=503`, `latency=300`, `fault=reset`…); [] for a real one. */
  forced: string[];
  /** What the mock's `X-Mock-Warning` header said on this answer (the hints a person would miss). */
  warnings: string[];
  /** Whether the answer keeps the contract (answer-check.ts), judged when the entry is first read; null until then. */
  verdict: AnswerCheck | null;
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

/** The fields of a synthesis body (§2.4) a replay sends again; whatever else it held changed nothing. */
const replayFields = ['generate_text', 'language', 'voice_id', 'speed', 'emotion_class', 'audio_format'];

/**
 * The JSON a replay sends: the known synthesis fields of `body` whose values are scalars, so that no
 * body can make logging throw (a field nested 5,000 deep overflowed JSON.stringify's stack and
 * dropped the connection after the characters were billed). Undefined for a body that is no object,
 * and for one whose strings alone are longer than a replay keeps (its JSON could only be longer: a
 * 5,000-character text is not turned into JSON to be thrown away).
 */
function replayText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const known: Record<string, unknown> = {};
  let chars = 0;
  for (const field of replayFields) {
    const value = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string') chars += value.length;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) known[field] = value;
  }
  return chars > replayBodyMaxChars ? undefined : JSON.stringify(known);
}

/** What the service knows of a request when it logs it; the log numbers it. */
export type NewRequestLogEntry = Omit<
  RequestLogEntry,
  'seq' | 'stream' | 'body' | 'query' | 'forced' | 'warnings' | 'verdict'
>;

/** A logged entry with what the journal kept of its exchange (undefined for entries logged without one). */
export interface JournalItem {
  readonly entry: RequestLogEntry;
  readonly exchange: KeptExchange | undefined;
}

/**
 * A key as the log shows it: at most 4 of its characters (common/secrets.ts: `mock-key-staging` →
 * `mo…ng`, `mock-key` → `m…y`), never the middle, so a screenshot of the dashboard or a pasted log
 * leaks no usable key. Keys shorter than 8 characters show nothing.
 */
export function maskKey(key: string | null): string | null {
  return key === null ? null : maskSecret(key);
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
  /**
   * The request and answer of each entry (the journal's detail), at the same place of a ring beside
   * `entries`: overwritten with its entry, so it goes with it (a WeakMap entry per request cost the
   * list ~10 % of its throughput).
   */
  private kept: (KeptExchange | undefined)[] = [];

  constructor(
    private readonly capacity: number,
    private readonly own: OwnChoices = {},
  ) {}

  /**
   * Logs a request; the entry is kept (and numbered) only while the log has room for any. `streamed`
   * is the answer whose body is still to be sent in chunks: `measured(streamed, …)` completes the entry.
   * `exchange` is what the journal keeps of the request and its answer (exchange.ts).
   */
  add(
    fields: NewRequestLogEntry,
    streamed?: object,
    sent?: { key: string; body: unknown },
    exchange?: KeptExchange,
  ): RequestLogEntry {
    this.lastSeq += 1;
    const body = sent === undefined ? undefined : replayText(sent.body);
    const kept = body !== undefined && body.length <= replayBodyMaxChars ? body : null;
    // Field by field, not `...fields`: a spread into a literal took a sixth of a list request's time in
    // the core; every request makes one entry.
    const { errorMessage } = fields;
    const entry: RequestLogEntry = {
      seq: this.lastSeq,
      at: fields.at,
      method: fields.method,
      path: shortened(fields.path, logMessageMaxChars),
      key: fields.key,
      status: fields.status,
      operationId: fields.operationId,
      durationMs: fields.durationMs,
      errorCode: fields.errorCode,
      errorMessage: errorMessage === null ? null : shortened(errorMessage, logMessageMaxChars),
      stream: null,
      body: kept,
      // Read from the exchange when the entry is first listed (copyOf), not on every request.
      query: '',
      forced: [],
      warnings: [],
      verdict: null,
    };
    if (streamed !== undefined) this.sending.set(streamed, entry);
    if (sent !== undefined && kept !== null)
      this.replays.set(entry, { method: fields.method, path: fields.path, key: sent.key, body: kept });
    if (this.capacity === 0) return entry;
    // A request that repeats the one before it, answer included, shares its exchange (sameExchange).
    const newest = this.kept[(this.oldest + this.kept.length - 1) % this.capacity];
    const shown = exchange && newest && sameExchange(exchange, newest) ? newest : exchange;
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      this.kept.push(shown);
      return entry;
    }
    this.entries[this.oldest] = entry;
    this.kept[this.oldest] = shown;
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
    const listed: RequestLogEntry[] = [];
    for (let n = 0; n < this.entries.length; n++) {
      const i = (this.oldest + n) % this.entries.length;
      if ((this.entries[i] as RequestLogEntry).seq > after) listed.push(this.itemAt(i).entry);
    }
    return listed;
  }

  /** The entries oldest first with what the journal kept of each (for the detail, the count and the HAR). */
  items(): JournalItem[] {
    const items: JournalItem[] = [];
    for (let n = 0; n < this.entries.length; n++) {
      const i = (this.oldest + n) % this.entries.length;
      items.push(this.itemAt(i));
    }
    return items;
  }

  /** One entry and its exchange, by number; undefined when it is not (or no longer) in the log. */
  item(seq: number): JournalItem | undefined {
    const i = this.entries.findIndex((e) => e.seq === seq);
    return i < 0 ? undefined : this.itemAt(i);
  }

  private itemAt(i: number): JournalItem {
    const entry = this.entries[i] as RequestLogEntry;
    return { entry: this.copyOf(entry, this.kept[i]), exchange: this.kept[i] };
  }

  /**
   * A copy to hand out, read first: the query, the forcing Prefer directives, the warnings and the
   * verdict are made once, when an entry is first read, not on every request.
   */
  private copyOf(entry: RequestLogEntry, exchange: KeptExchange | undefined): RequestLogEntry {
    if (entry.verdict === null) {
      if (exchange) {
        entry.query = queryOf(exchange.url);
        entry.forced = forcedBy(exchange.requestHeaders.get('prefer'), entry.status);
        entry.warnings = warningsOf(exchange.answerHeaders);
      }
      entry.verdict = answerCheckOf(entry, exchange, this.own);
    }
    return {
      ...entry,
      stream: entry.stream && { ...entry.stream },
      forced: [...entry.forced],
      warnings: [...entry.warnings],
      verdict: { ...entry.verdict, problems: [...entry.verdict.problems] },
    };
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

  /** Empties the log (the numbering goes on); `clears` moves, which tells readers to start over. */
  clear(): void {
    this.entries = [];
    this.kept = [];
    this.oldest = 0;
    this.clears += 1;
  }
}

/** The query of an absolute URL, with its `?` and its secret parameters masked; '' without one. */
function queryOf(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return '';
  const hash = url.indexOf('#', mark);
  return maskUrl(hash < 0 ? url.slice(mark) : url.slice(mark, hash));
}
