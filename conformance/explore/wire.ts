/**
 * Sending a step: its values resolved from earlier answers, its request built, sent through the suite's
 * one network call, and the answer's fields later steps may use kept.
 */
import { apiKeyHeader } from '../../openapi/contract.js';
import { operations } from '../../openapi/document-index.js';
import { kitFixtures } from '../setup/fixture-source.js';
import { type Exchange, type FetchLike, send } from '../toolkit/http.js';
import { uploadFormData } from '../toolkit/multipart.js';
import type { RunKeys } from '../toolkit/run-state.js';
import type { SentRequest } from './facts.js';
import { type Step, type StepValue, withRun } from './step.js';

export interface Wire {
  readonly fetch: FetchLike;
  readonly baseUrl: string;
  readonly keys: RunKeys;
  /** The run prefix `{run}` stands for. */
  readonly prefix: string;
  readonly signal?: AbortSignal | undefined;
}

/** The fields of earlier answers, by step index. */
export type Answers = Map<number, { object_key?: string; next_voice_id?: string }>;

/** A value of the step, or undefined when the step it names gave none (the step is then not sent). */
export function resolve(value: StepValue | undefined, answers: Answers): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return answers.get(value.from)?.[value.field];
}

const jsonHeaders = (key: string) => ({ [apiKeyHeader]: key, 'Content-Type': 'application/json' });

/** The request of a step, and what the judge is told was sent; undefined when a value is missing. */
export async function buildRequest(
  wire: Wire,
  step: Step,
  answers: Answers,
): Promise<{ request: Request; sent: SentRequest } | undefined> {
  const key = wire.keys[step.key] ?? '';
  const base = { op: step.op, query: {}, json: undefined, form: undefined };
  if (step.op === 'listVoices') {
    const cursor = resolve(step.cursor, answers);
    if (step.cursor !== undefined && cursor === undefined) return undefined;
    const query: Record<string, string> = {};
    if (step.pageSize !== undefined) query.page_size = String(step.pageSize);
    if (cursor !== undefined) query.voice_id = cursor;
    const path = `/v1/voice/list${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
    const headers = { [apiKeyHeader]: key };
    return {
      request: new Request(`${wire.baseUrl}${path}`, { headers }),
      sent: { ...base, method: 'GET', path, query, headers: lower(headers) },
    };
  }
  if (step.op === 'deleteVoice') {
    const path = `/v1/voice/${encodeURIComponent(withRun(step.voice ?? '', wire.prefix))}`;
    const headers = { [apiKeyHeader]: key };
    return {
      request: new Request(`${wire.baseUrl}${path}`, { method: 'DELETE', headers }),
      sent: { ...base, method: 'DELETE', path, headers: lower(headers) },
    };
  }
  if (step.op === 'uploadFile') return uploadRequest(wire, step, key);
  const json: Record<string, unknown> = { ...step.json };
  if (typeof json.voice_id === 'string') json.voice_id = withRun(json.voice_id, wire.prefix);
  if (step.refAudio !== undefined) {
    const ref = resolve(step.refAudio, answers);
    if (ref === undefined) return undefined;
    json.ref_audio = ref;
  }
  // The operation's path, as the description states it.
  const path = operations().get(step.op)?.path ?? '';
  const headers = jsonHeaders(key);
  return {
    request: new Request(`${wire.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(json) }),
    sent: { ...base, method: 'POST', path, headers: lower(headers), json },
  };
}

async function uploadRequest(wire: Wire, step: Step, key: string) {
  const u = step.upload;
  const fixture = u && (await kitFixtures(u.role));
  if (!u || !fixture) return undefined;
  const bytes = u.empty ? new Uint8Array(0) : fixture.bytes;
  const path = '/v1/files/upload';
  const headers = { [apiKeyHeader]: key };
  const body = uploadFormData({ scene: u.scene, file: { name: u.fileName, bytes } });
  return {
    request: new Request(`${wire.baseUrl}${path}`, { method: 'POST', headers, body }),
    sent: {
      op: step.op,
      method: 'POST',
      path,
      query: {},
      headers: { ...lower(headers), 'content-type': 'multipart/form-data' },
      json: undefined,
      form: { scene: u.scene, fileName: u.fileName, bytes: bytes.byteLength },
    },
  };
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * Send a built request, cancelled by the wire's signal (Ctrl-C); bodies are read whole up to
 * `limitBytes` (the judge checks their framing).
 */
export function sendRequest(wire: Wire, request: Request, limitBytes?: number): Promise<Exchange> {
  const signal = wire.signal;
  const req = signal ? new Request(request, { signal }) : request;
  return send(wire.fetch, req, { ...(signal ? { signal } : {}), ...(limitBytes ? { limitBytes } : {}) });
}

/** Keep what later steps may take from this answer. */
export function keepAnswer(answers: Answers, index: number, ex: Exchange): void {
  const json = ex.json as { data?: Record<string, unknown> } | undefined;
  const data =
    ex.status === 200 && json && typeof json.data === 'object' && json.data ? json.data : undefined;
  const kept: { object_key?: string; next_voice_id?: string } = {};
  if (typeof data?.object_key === 'string') kept.object_key = data.object_key;
  if (typeof data?.next_voice_id === 'string' && data.has_more === true)
    kept.next_voice_id = data.next_voice_id;
  answers.set(index, kept);
}
