/**
 * The facts of one exchange, as any observer gathers them (the proxy from the bytes that pass, the
 * suite from its own fetch, the mock from its answer): the request, the answer, the audio summary and
 * the timing, numbered in the order the exchanges ended. Nothing here reads bytes off a socket.
 */
import type { OperationId } from '../openapi/contract.js';

/** Header values by lowercase name, as Node gives them (a repeated header is an array). */
export type HeaderMap = Readonly<Record<string, string | string[] | undefined>>;

/** A body as the observer kept it: parsed JSON, or why not. */
export type KeptBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'not-json'; readonly error: string }
  | { readonly kind: 'too-large'; readonly bytes: number };

/** One part of a multipart/form-data request: its name, filename, byte count and (small fields) text. */
export interface FormPart {
  readonly name: string | undefined;
  readonly filename: string | undefined;
  readonly bytes: number;
  /** The value of a part without a filename, up to a few hundred bytes (the scene). */
  readonly text?: string | undefined;
}

/** What was seen of a multipart form. */
export interface FormSummary {
  readonly parts: readonly FormPart[];
  readonly complete: boolean;
  readonly error: string | undefined;
}

export type AudioKind = 'wav' | 'mp3' | 'pcm';

/** PCM layout as the answer's headers state it. */
export interface PcmLayout {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitDepth: number;
}

/** What an audio reader concluded about an answer's audio body. */
export interface AudioSummary {
  readonly kind: AudioKind;
  readonly bytes: number;
  /** Seconds of audio the bytes hold, when the framing says (WAV byte rate, MPEG frames, PCM layout). */
  readonly seconds: number | undefined;
  readonly problems: readonly string[];
}

/** The facts of one complete exchange. */
export interface ExchangeFacts {
  /** The exchange's number in its session: verdicts and evidence name it. */
  readonly seq: number;
  readonly operationId: OperationId;
  readonly method: string;
  /** The request's path as sent (the delete's voice_id is read from it). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly requestHeaders: HeaderMap;
  readonly requestJson: KeptBody;
  readonly form: FormSummary | undefined;
  readonly status: number;
  readonly responseHeaders: HeaderMap;
  readonly responseJson: KeptBody;
  /** The audio summary of a synthesis success; undefined when no reader walked it. */
  readonly audio: AudioSummary | undefined;
  /** Request end → first body byte, first → last body byte, number of body chunks. */
  readonly timing: { readonly waitMs: number; readonly spanMs: number; readonly chunks: number };
}

/** One header's value (repeated values joined), by any case of its name. */
export const header = (h: HeaderMap, name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

export const mimeOf = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON object of a kept body, or undefined. */
export const jsonObject = (body: KeptBody): Record<string, unknown> | undefined =>
  body.kind === 'json' && isObject(body.value) ? body.value : undefined;

/** The request's API key, trimmed ('' when none). */
export function apiKeyOf(facts: Pick<ExchangeFacts, 'requestHeaders'>): string {
  const v = facts.requestHeaders['x-api-key'];
  return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim();
}

/** The answer's business error_code, when the answer is an envelope with a numeric one. */
export const errorCodeOf = (facts: ExchangeFacts): number | undefined => {
  const code = jsonObject(facts.responseJson)?.error_code;
  return typeof code === 'number' ? code : undefined;
};

export const isSuccess = (facts: ExchangeFacts) => facts.status >= 200 && facts.status < 300;

/** A refusal of the caller's request (4xx other than the rate limit): the deployment said no. */
export const isRefusal = (facts: ExchangeFacts) =>
  facts.status >= 400 && facts.status < 500 && facts.status !== 429;

/** The request was sent as JSON (Content-Type application/json or +json): a refusal may not be for its form. */
export const sentAsJson = (facts: ExchangeFacts) =>
  /^application\/([\w.+-]*\+)?json\b/i.test((header(facts.requestHeaders, 'content-type') ?? '').trim());
