import { sniffContainer } from '../../../audio/containers/sniff.js';
import { MP3_KBPS } from '../../../audio/synthesis/mp3-frames.js';
import { maskUrl, shownHeaderValue } from '../../../common/secrets.js';
import type { MockConfig } from '../../config/types.js';
import { type HeaderSource, type KeptExchange, type KeptText, keptText } from '../state/exchange.js';
import type { JournalItem, RequestLogEntry } from '../state/request-log.js';

/** A header as the journal (and HAR) lists it. */
export interface HeaderLine {
  name: string;
  value: string;
}

/** What an audio answer was: read from its type, size and first bytes, never kept whole. */
export interface AudioFacts {
  format: string;
  mediaType: string;
  /** The body's size: in memory, or as the Node server measured it going out; null until then. */
  bytes: number | null;
  durationSeconds: number | null;
}

/** GET /__mock/requests/{seq}: the log line, and the request and answer it stands for. */
export interface ExchangeView extends RequestLogEntry {
  request: {
    method: string;
    url: string;
    headers: HeaderLine[];
    /** The JSON body as sent (its first 4,096 characters), or null. */
    body: KeptText | null;
    /** An upload form: its field names, the file's name, size and sniffed container. */
    upload: {
      fields: readonly string[];
      fileName: string | null;
      fileBytes: number;
      scene: string | null;
      container: string | null;
    } | null;
  };
  answer: {
    status: number;
    headers: HeaderLine[];
    /** A JSON answer's text (up to 32 KiB), or null (audio, a larger body, a dropped connection). */
    body: string | null;
    audio: AudioFacts | null;
  };
}

/** Headers a request may carry that the Node adapter's light headers can only be asked for by name. */
const usualHeaders = [
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'content-length',
  'transfer-encoding',
  'prefer',
  'x-api-key',
  'x-mock-control-token',
  'origin',
  'referer',
  'authorization',
  'cookie',
  'connection',
  'x-request-id',
  'idempotency-key',
  'cache-control',
];
const headerMaxChars = 1024;
const headersMax = 64;

const line = (name: string, value: string): HeaderLine => {
  const masked = shownHeaderValue(name, value);
  return { name, value: masked.length > headerMaxChars ? `${masked.slice(0, headerMaxChars - 1)}…` : masked };
};

/** The request's headers, keys masked: every one when the headers can be walked, else the usual names. */
export function requestHeaderLines(headers: HeaderSource): HeaderLine[] {
  const lines: HeaderLine[] = [];
  if (typeof headers.forEach === 'function') {
    headers.forEach((value, name) => {
      if (lines.length < headersMax) lines.push(line(name, value));
    });
    return lines;
  }
  for (const name of usualHeaders) {
    const value = headers.get(name);
    if (value !== null) lines.push(line(name, value));
  }
  return lines;
}

export const answerHeaderLines = (headers: Readonly<Record<string, string>>): HeaderLine[] =>
  Object.entries(headers)
    .slice(0, headersMax)
    .map(([name, value]) => line(name, value));

/** The mock's synthesis renders 16-bit mono at 24 kHz (audio/synthesis/stream.ts) unless told otherwise. */
const synthesisBytesPerSecond = 24_000 * 2;
const wavHeaderBytes = 44;

/** Reads a little-endian 32-bit integer; undefined past the end. */
const u32 = (bytes: Uint8Array, at: number) =>
  at + 4 <= bytes.byteLength
    ? ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) +
      (bytes[at + 3] as number) * 2 ** 24
    : undefined;

/**
 * What an audio answer was: its format (from the media type), bytes, and duration, from the sizes the
 * formats fix: a WAV's byte rate in its header (or the synthesis rate for a streamed one), the PCM
 * headers, MP3 at the mock's constant bit rate.
 */
export function audioFacts(
  entry: RequestLogEntry,
  kept: KeptExchange,
  config: MockConfig,
): AudioFacts | null {
  const mediaType = (kept.answerHeaders['Content-Type'] ?? '').split(';')[0]?.trim() ?? '';
  if (!mediaType.startsWith('audio/') || entry.status !== 200) return null;
  const bytes = kept.answerBytes ?? entry.stream?.bytes ?? null;
  const format = mediaType === 'audio/mpeg' ? 'mp3' : mediaType.slice('audio/'.length);
  const seconds = (perSecond: number, header = 0) =>
    bytes === null || perSecond <= 0 ? null : Math.round(((bytes - header) / perSecond) * 1000) / 1000;
  let durationSeconds: number | null = null;
  if (format === 'wav') {
    const rate = kept.audioHead ? u32(kept.audioHead, 28) : undefined;
    durationSeconds = seconds(rate ?? synthesisBytesPerSecond, wavHeaderBytes);
  } else if (format === 'pcm') {
    const h = config.pcmHeaders;
    const read = (name: string) => Number(kept.answerHeaders[name] ?? Number.NaN);
    const perSecond = read(h.sampleRate) * read(h.channels) * (read(h.bitDepth) / 8);
    durationSeconds = Number.isFinite(perSecond) ? seconds(perSecond) : null;
  } else if (format === 'mp3') durationSeconds = seconds((MP3_KBPS * 1000) / 8);
  return { format, mediaType, bytes, durationSeconds };
}

const decoder = new TextDecoder();

/** The whole detail of one journal item, keys masked. */
export function exchangeView({ entry, exchange }: JournalItem, config: MockConfig): ExchangeView {
  const upload = exchange?.upload ?? null;
  return {
    ...entry,
    request: {
      method: entry.method,
      url: maskUrl(exchange?.url ?? entry.path),
      headers: exchange ? requestHeaderLines(exchange.requestHeaders) : [],
      body: exchange?.requestBody ?? null,
      upload: upload && {
        fields: upload.fields,
        fileName: upload.fileName && keptText(upload.fileName, 1024).text,
        fileBytes: upload.fileBytes,
        scene: upload.scene,
        container: upload.head ? sniffContainer(upload.head) : null,
      },
    },
    answer: {
      status: entry.status,
      headers: exchange ? answerHeaderLines(exchange.answerHeaders) : [],
      body: exchange?.answerJson ? decoder.decode(exchange.answerJson) : null,
      audio: exchange ? audioFacts(entry, exchange, config) : null,
    },
  };
}
