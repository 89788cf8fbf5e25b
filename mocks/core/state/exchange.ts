import { type Answer, BytesAnswer, DroppedAnswer } from '../answer/answer.js';

/**
 * What the request journal keeps of one exchange beyond its log line, for GET /__mock/requests/{seq}
 * and the HAR: the request's URL, headers and body, the answer's headers and JSON body or audio.
 * Bounded per entry whatever the client sends: JSON bodies up to `journalBodyMaxChars`, audio never
 * (only its type, size and first bytes), an upload as a summary of its form. Keys are masked when
 * the detail is read (`exchangeView`), never stored anywhere new: the headers are the request's own.
 */
export interface KeptExchange {
  /** The absolute URL with its query, its first `urlMaxChars` characters. */
  readonly url: string;
  /** The request's headers object itself, read when the detail is asked for (copying it would cost every request). */
  readonly requestHeaders: HeaderSource;
  /** The JSON body as received (its first `journalBodyMaxChars` characters), or null. */
  readonly requestBody: KeptText | null;
  /** What an upload form held; null for any other request. */
  readonly upload: UploadSummary | null;
  readonly answerHeaders: Readonly<Record<string, string>>;
  /** A JSON answer's bytes (the answer's own, not copied) when they are at most `journalAnswerMaxBytes`. */
  readonly answerJson: Uint8Array | null;
  /** The size of a body held in memory or announced by Content-Length; null for one of unknown length (see the entry's `stream`). */
  readonly answerBytes: number | null;
  /** The first bytes of a complete audio answer (its container header), copied; null otherwise. */
  readonly audioHead: Uint8Array | null;
}

/** A text kept up to a cap: `truncated` says the original was longer (`chars` long). */
export interface KeptText {
  readonly text: string;
  readonly chars: number;
  readonly truncated: boolean;
}

/** What an upload form sent, as the upload reader saw it (multipart-upload.ts notes it). */
export interface UploadSummary {
  /** The names of the form's parts, in order (the first 16). */
  readonly fields: readonly string[];
  readonly fileName: string | null;
  /** Bytes of the file part read (up to the upload limit and a little past it). */
  readonly fileBytes: number;
  readonly scene: string | null;
  /** The first bytes of the file, to tell its container when the detail is read. */
  readonly head: Uint8Array | null;
}

/** Headers as the core is handed them: Fetch `Headers` (MSW, in-process) or the Node adapter's light ones. */
export interface HeaderSource {
  get(name: string): string | null;
  forEach?(callback: (value: string, name: string) => void): void;
  /**
   * Whether `other` holds the same header lines in the same order. Optional: the journal shares one
   * exchange between requests whose headers say so (`sameExchange`), and never for a source without it.
   */
  sameAs?(other: HeaderSource): boolean;
}

/** The longest JSON body (request or answer) the journal keeps per entry: 200 entries stay under ~3 MB. */
export const journalBodyMaxChars = 4096;
/**
 * The largest JSON answer kept (by reference: the answer's own bytes): a page of 100 voices fits, so
 * its verdict judges the whole body; 200 entries hold at most ~6.5 MB.
 */
export const journalAnswerMaxBytes = 32_768;
/** The longest URL kept: a 16 KB query must not be kept 200 times. */
export const urlMaxChars = 2048;
/** Bytes of an audio body's start kept: enough for a WAV or MP3 header. */
const audioHeadBytes = 64;
/** Bytes of an uploaded file's start kept, to sniff its container (an ID3 tag may come first). */
export const uploadHeadBytes = 512;

// The upload reader notes a form's summary under its request; weak, so nothing outlives the request.
const uploads = new WeakMap<object, UploadSummary>();

/** Called by the upload reader once a form is read (or refused), so the journal can show what it held. */
export function noteUpload(request: object, summary: UploadSummary): void {
  uploads.set(request, summary);
}

/**
 * `text` cut to `max` characters with an ellipsis, as a string of its own: a slice of a long string
 * keeps the whole of it alive, so 200 log entries that echo 16 KB paths kept 200 of those.
 */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${ownCopy(text.slice(0, max - 1))}…`;
}

/**
 * A string that shares no memory with the one it was cut from (V8 keeps a slice's parent alive).
 * Through JSON and back: two native passes that make a string of its own, exact to the last code
 * unit (a surrogate cut in half comes back as it was). `Array.from(text).join('')`, as this once was,
 * made one string per character: 4,096 characters cost ~75 µs against ~8, a tenth of a 5,000-character
 * stream's first byte.
 */
export const ownCopy = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/**
 * Cuts a text to `max` characters, saying so. The cut is a copy of its own when the text is more than
 * twice as long (a slice keeps its whole text alive), so no entry holds more than twice what it
 * shows; a 5,000-character synthesis body is not copied through JSON twice more on its way.
 */
export function keptText(text: string, max = journalBodyMaxChars): KeptText {
  if (text.length <= max) return { text, chars: text.length, truncated: false };
  const cut = text.slice(0, max);
  return { text: text.length > 2 * max ? ownCopy(cut) : cut, chars: text.length, truncated: true };
}

function jsonText(body: unknown): KeptText | null {
  if (body === undefined) return null;
  try {
    const text = JSON.stringify(body);
    return text === undefined ? null : keptText(text);
  } catch {
    // A body JSON.parse made always stringifies; this is for a value from elsewhere.
    return null;
  }
}

/** The Content-Length a streamed answer announced (complete audio is sent in chunks of a known total). */
function announcedLength(headers: Readonly<Record<string, string>>): number | null {
  const length = Number(headers['Content-Length'] ?? Number.NaN);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/**
 * Whether two kept exchanges show the very same thing: the same URL and request headers, no body or
 * upload, and the same answer in memory (its headers and bytes the same objects). The request log
 * keeps one exchange for a run of such requests (a client polling the list, a load test) instead of
 * one each: in throwaway builds, an exchange kept per request was the dearest part of a list
 * request's log line under load. What differs between the
 * requests (number, time, duration) is in their log entries, never in the exchange.
 */
export function sameExchange(a: KeptExchange, b: KeptExchange): boolean {
  return (
    a.url === b.url &&
    a.answerHeaders === b.answerHeaders &&
    a.answerJson === b.answerJson &&
    a.answerBytes === b.answerBytes &&
    a.requestBody === null &&
    b.requestBody === null &&
    a.upload === null &&
    b.upload === null &&
    a.audioHead === null &&
    b.audioHead === null &&
    (a.requestHeaders === b.requestHeaders || a.requestHeaders.sameAs?.(b.requestHeaders) === true)
  );
}

const isJson = (headers: Readonly<Record<string, string>>) =>
  (headers['Content-Type'] ?? '').startsWith('application/json');

/**
 * What the journal keeps of a request and its answer. `received` is the JSON body the pipeline read
 * (undefined when there was none or it was no JSON). Cheap on every request: references and a slice.
 */
export function keepExchange(
  request: { readonly method: string; readonly url: string; readonly headers: HeaderSource },
  answer: Answer,
  received: unknown,
): KeptExchange {
  const bytesAnswer = answer instanceof BytesAnswer ? answer : undefined;
  const answerHeaders = answer instanceof DroppedAnswer ? {} : answer.headers;
  const json = bytesAnswer !== undefined && isJson(answerHeaders);
  return {
    url: request.url.length > urlMaxChars ? ownCopy(request.url.slice(0, urlMaxChars)) : request.url,
    requestHeaders: request.headers,
    requestBody: jsonText(received),
    // Only an upload form is noted: a GET spares the lookup.
    upload: (request.method === 'POST' && uploads.get(request)) || null,
    answerHeaders,
    answerJson: json && bytesAnswer.bytes.byteLength <= journalAnswerMaxBytes ? bytesAnswer.bytes : null,
    answerBytes: bytesAnswer ? bytesAnswer.bytes.byteLength : announcedLength(answerHeaders),
    audioHead: bytesAnswer && !json ? bytesAnswer.bytes.slice(0, audioHeadBytes) : null,
  };
}
