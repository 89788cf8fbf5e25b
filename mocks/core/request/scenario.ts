import type { OperationId } from '../../../openapi/contract.js';
import { errors } from '../../../openapi/contract.js';
import { documentedStatuses, errorExample } from '../../../openapi/validate.js';
import { type BytesAnswer, type ChunkSource, StreamAnswer } from '../answer/answer.js';
import { type Failure, fail, failureAnswer } from '../answer/envelope.js';

/** A fault a client asked for with `Prefer: fault=...`, to test its own error handling. */
export type Fault =
  | { readonly kind: 'reset' }
  | { readonly kind: 'cut-after-bytes'; readonly bytes: number }
  | { readonly kind: 'slow-chunks'; readonly ms: number };

/**
 * What the Prefer header asks for (RFC 7240, with Prism's `code=` convention):
 * `code=NNN` the documented error for that status; `fault=reset`, `fault=cut-after-bytes=N`,
 * `fault=slow-chunks=MS`; `latency=MS` before the answer (a stream: before its first chunk);
 * `pace=realtime`. None of them stands in for an API key: the pipeline checks the key first.
 * Several preferences are separated by commas or semicolons.
 */
export interface Preferences {
  readonly code?: number;
  readonly faults: readonly Fault[];
  readonly latencyMs?: number;
  readonly realtime?: boolean;
}

/** What a request without a Prefer header asks for: nothing (shared, frozen: most requests have none). */
export const noPreferences: Preferences = Object.freeze({ faults: Object.freeze([]) });

const faultHelp = 'known faults: reset, cut-after-bytes=N, slow-chunks=MS';

function nonNegativeInt(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * The longest wait a `Prefer` may ask for, ms (`latency=`, `fault=slow-chunks=`): a minute is longer
 * than any client timeout worth testing, and a longer one would only hold a connection.
 */
export const maxPreferWaitMs = 60_000;

function parseFault(value: string): Fault | Failure {
  const [name, argument] = value.split('=', 2);
  const amount = nonNegativeInt(argument);
  if (name === 'reset' && argument === undefined) return { kind: 'reset' };
  if (name === 'cut-after-bytes' && amount !== undefined) return { kind: 'cut-after-bytes', bytes: amount };
  if (name === 'slow-chunks' && amount !== undefined && amount > maxPreferWaitMs)
    return fail(
      'invalidRequest',
      `Prefer: fault=slow-chunks may wait at most ${maxPreferWaitMs} ms, got ${amount}`,
    );
  if (name === 'slow-chunks' && amount !== undefined) return { kind: 'slow-chunks', ms: amount };
  return fail('invalidRequest', `Prefer: unknown fault "${value}"; ${faultHelp}`);
}

/**
 * Reads the Prefer header. Unknown preference names are ignored (RFC 7240); a malformed value of a
 * known one is a failure, so a typo in a test scenario is loud.
 *
 * @example
 * parsePreferences('code=503'); // { code: 503, faults: [] }
 */
export function parsePreferences(header: string | null): Preferences | Failure {
  if (header === null || header === '') return noPreferences;
  const faults: Fault[] = [];
  const preferences: { code?: number; latencyMs?: number; realtime?: boolean } = {};
  for (const token of (header ?? '').split(/[,;]/)) {
    const cut = token.indexOf('=');
    const name = (cut < 0 ? token : token.slice(0, cut)).trim().toLowerCase();
    const value =
      cut < 0
        ? ''
        : token
            .slice(cut + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      const code = nonNegativeInt(value);
      if (code === undefined)
        return fail('invalidRequest', `Prefer: code must be an HTTP status, got "${value}"`);
      preferences.code = code;
    } else if (name === 'fault') {
      const fault = parseFault(value);
      if ('error' in fault) return fault;
      faults.push(fault);
    } else if (name === 'latency') {
      preferences.latencyMs = nonNegativeInt(value);
      if (preferences.latencyMs === undefined)
        return fail('invalidRequest', 'Prefer: latency must be milliseconds');
      if (preferences.latencyMs > maxPreferWaitMs)
        return fail(
          'invalidRequest',
          `Prefer: latency may be at most ${maxPreferWaitMs} ms, got ${preferences.latencyMs}`,
        );
    } else if (name === 'pace') {
      preferences.realtime = value === 'realtime';
    }
  }
  return { ...preferences, faults };
}

/**
 * The answer `Prefer: code=NNN` selects: undefined for a success status (the operation runs), the
 * documented error example for an error status, or a 400 naming the statuses available.
 *
 * @example
 * preferredResponse('uploadFile', 503); // 503 envelope with error_code 20002
 */
export function preferredResponse(
  operationId: OperationId,
  code: number,
  headers?: Record<string, string>,
): BytesAnswer | Failure | undefined {
  const statuses = documentedStatuses(operationId);
  if (statuses.includes(code) && code < 300) return undefined;
  if (statuses.includes(code)) {
    const example = errorExample(operationId, code);
    if (example) return failureAnswer(code, example.error_code, example.error_message, headers);
    const entry = Object.values(errors).find(
      (e) => e.status === code && (e.operations as readonly string[]).includes(operationId),
    );
    if (entry) return failureAnswer(code, entry.code, entry.message, headers);
  }
  return fail(
    'invalidRequest',
    `Prefer: code=${code} is not a documented status of ${operationId}; available: ${statuses.join(', ')}`,
  );
}

/**
 * Applies the body faults (cut, slow) to an answer; `reset` is handled before the operation runs. The
 * answer becomes a stream of its chunks that waits `slow-chunks` ms before every chunk but the first,
 * and breaks off after `cut-after-bytes` bytes as a cut connection does: what was sent arrives, then
 * the body errors. A body of known length (bytes in memory, or a complete audio answer rendered as it
 * is sent, with its Content-Length) is one piece to `slow-chunks`: one wait, before its end. A known
 * length stays in the headers, so a cut body is visibly short.
 */
export function applyFaults(
  answer: BytesAnswer | StreamAnswer,
  faults: readonly Fault[],
  sleep: (ms: number) => Promise<void>,
): BytesAnswer | StreamAnswer {
  const cut = faults.find((f) => f.kind === 'cut-after-bytes');
  const slow = faults.find((f) => f.kind === 'slow-chunks');
  if (!cut && !slow) return answer;
  const inner: ChunkSource =
    answer instanceof StreamAnswer ? answer.source : onceSource(answer.bytes.slice());
  const headers =
    answer instanceof StreamAnswer
      ? answer.headers
      : { ...answer.headers, 'Content-Length': String(answer.bytes.byteLength) };
  const whole = 'Content-Length' in headers;
  let sent = 0;
  let first = true;
  let broken = false;
  const source: ChunkSource = {
    async pull() {
      if (broken) throw new Error(`fault: connection cut after ${cut?.bytes} bytes`);
      if (slow && !first && !whole) await sleep(slow.ms);
      first = false;
      const chunk = await inner.pull();
      if (chunk === undefined) {
        if (slow && whole) await sleep(slow.ms);
        return undefined;
      }
      if (cut && sent + chunk.byteLength >= cut.bytes) {
        inner.cancel();
        broken = true;
        if (cut.bytes > sent) return chunk.subarray(0, cut.bytes - sent);
        throw new Error(`fault: connection cut after ${cut.bytes} bytes`);
      }
      sent += chunk.byteLength;
      return chunk;
    },
    cancel: () => inner.cancel(),
  };
  return new StreamAnswer(answer.status, source, headers);
}

/** A source of one chunk. */
function onceSource(bytes: Uint8Array): ChunkSource {
  let done = false;
  return {
    pull() {
      if (done) return undefined;
      done = true;
      return bytes;
    },
    cancel() {
      done = true;
    },
  };
}
