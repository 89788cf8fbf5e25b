/**
 * The judge's facts of one step's exchange, as the explorer sent and read it: the request as data, the
 * answer read to its end by the suite's one network call (toolkit/http.ts).
 */
import {
  type AudioSummary,
  audioKindOf,
  checkMp3,
  checkPcm,
  checkWav,
  type ExchangeFacts,
} from '../../judge/index.js';
import type { OperationId } from '../../openapi/contract.js';
import type { Exchange } from '../toolkit/http.js';

/** What was sent, as the judge reads it. */
export interface SentRequest {
  readonly op: OperationId;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly json: unknown;
  readonly form: { readonly scene: string; readonly fileName: string; readonly bytes: number } | undefined;
}

const u32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;

/** Seconds a canonical WAV holds (its byte rate at offset 28, its data after the 44-byte header). */
function wavSeconds(bytes: Uint8Array): number | undefined {
  const byteRate = bytes.byteLength >= 44 ? u32(bytes, 28) : 0;
  return byteRate > 0 ? (bytes.byteLength - 44) / byteRate : undefined;
}

function audioOf(op: OperationId, ex: Exchange): AudioSummary | undefined {
  if (op !== 'synthesizeSpeech' && op !== 'streamSpeech') return undefined;
  const kind = ex.status >= 200 && ex.status < 300 ? audioKindOf(ex.headers.get('content-type')) : undefined;
  if (!kind || ex.truncated) return undefined;
  const streamed = op === 'streamSpeech';
  const problems =
    kind === 'wav'
      ? checkWav(ex.bytes, streamed)
      : kind === 'mp3'
        ? checkMp3(ex.bytes)
        : checkPcm(ex.bytes, null);
  const seconds = kind === 'wav' ? wavSeconds(ex.bytes) : undefined;
  return { kind, bytes: ex.bytes.byteLength, seconds, problems };
}

/** The facts of exchange number `seq`. */
export function factsOf(seq: number, sent: SentRequest, ex: Exchange): ExchangeFacts {
  const responseHeaders: Record<string, string> = {};
  ex.headers.forEach((v, k) => {
    responseHeaders[k] = v;
  });
  const jsonAnswer = /json/i.test(ex.headers.get('content-type') ?? '');
  const responseJson =
    ex.json !== undefined
      ? ({ kind: 'json', value: ex.json } as const)
      : jsonAnswer && ex.bytes.byteLength > 0
        ? ({ kind: 'not-json', error: 'the body does not parse as JSON' } as const)
        : ({ kind: 'none' } as const);
  const first = ex.firstByteMs ?? ex.totalMs;
  return {
    seq,
    operationId: sent.op,
    method: sent.method,
    path: sent.path,
    query: sent.query,
    requestHeaders: sent.headers,
    requestJson: sent.json === undefined ? { kind: 'none' } : { kind: 'json', value: sent.json },
    form: sent.form && {
      parts: [
        { name: 'scene', filename: undefined, bytes: sent.form.scene.length, text: sent.form.scene },
        { name: 'file', filename: sent.form.fileName, bytes: sent.form.bytes },
      ],
      complete: true,
      error: undefined,
    },
    status: ex.status,
    responseHeaders,
    responseJson,
    audio: audioOf(sent.op, ex),
    timing: { waitMs: first, spanMs: ex.totalMs - first, chunks: ex.reads },
  };
}
