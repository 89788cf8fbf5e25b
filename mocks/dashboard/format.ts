// The journal's JSON as the core declares it: types only, erased from the bundle (layout.test.ts checks
// that the page imports nothing else of the kit), so the page and the API cannot disagree on a field.
import type { ExchangeView, HeaderLine } from '../core/control/journal-view.js';
import type { RequestLogEntry } from '../core/state/request-log.js';

export type { HeaderLine };
/** A request of GET /__mock/requests. */
export type LogEntry = RequestLogEntry;
/** GET /__mock/requests/<seq>: one request and its answer in full. */
export type ExchangeDetail = ExchangeView;

/** A JSON text indented for reading; the text as it came when it is no (whole) JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** 2.3456 → "2.35 s"; null → "? s". */
export const formatSeconds = (seconds: number | null): string =>
  seconds === null ? '? s' : `${seconds.toFixed(2)} s`;

/** 1234567 → "1.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** 3.25 → "3.3 ms", 1520 → "1.52 s". */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Unix seconds → "2026-01-01 00:00:05" (UTC: the mock's clock is shown as the API reports it). */
export function formatTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
}

/** "2xx", "4xx", …, "dropped" for a connection the mock cut (status 0). */
export function statusClass(status: number): string {
  return status === 0 ? 'dropped' : `${Math.floor(status / 100)}xx`;
}

/** The log's filter: a status class ("" for all) and a part of the path. */
export interface LogFilter {
  status: string;
  path: string;
}

export function matches(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.status !== '' && statusClass(entry.status) !== filter.status) return false;
  return filter.path === '' || entry.path.toLowerCase().includes(filter.path.trim().toLowerCase());
}

/**
 * A curl command that sends the request again. The log never keeps the whole key: it is read from
 * $VOICE_KIT_API_KEY. A synthesis request's body is in the log; any other body is left to fill in.
 *
 * @example
 * curlOf(entry, 'http://127.0.0.1:4010'); // curl -sS -X GET 'http://127.0.0.1:4010/v1/voice/list' -H "X-API-Key: $VOICE_KIT_API_KEY"
 */
export function curlOf(entry: LogEntry, origin: string): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const parts = ['curl', '-sS', '-X', entry.method, quote(`${origin}${entry.path}${entry.query ?? ''}`)];
  if (entry.key !== null) parts.push('-H', '"X-API-Key: $VOICE_KIT_API_KEY"');
  if (entry.method === 'POST' && entry.path === '/v1/files/upload')
    parts.push('-F', 'scene=audio', '-F', 'file=@recording.wav');
  else if (entry.method === 'POST')
    parts.push('-H', quote('Content-Type: application/json'), '-d', quote(entry.body ?? '{…}'));
  if (entry.path.startsWith('/v1/text-to-speech')) parts.push('-o', 'speech.audio');
  return parts.join(' ');
}
