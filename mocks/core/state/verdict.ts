import { audioMediaTypes, type OperationId } from '../../../openapi/contract.js';
import { documentedStatuses, validateResponse } from '../../../openapi/validate.js';
import type { KeptExchange } from './exchange.js';

/**
 * Whether one logged answer keeps the contract. The mock's own answers always should: a row whose
 * verdict is not ok is a bug report. `checked` says how much could be judged: the whole JSON body,
 * or (for a body too large to keep, audio, a dropped connection) its status and type only.
 */
export interface Verdict {
  ok: boolean;
  problems: string[];
  checked: 'body' | 'status' | 'nothing';
}

/** What the verdict reads of a log entry. */
interface Judged {
  readonly status: number;
  readonly operationId: OperationId | null;
}

const decoder = new TextDecoder();

/**
 * The contract verdict of one exchange: the OpenAPI response validation (openapi/validate.ts) of the
 * kept JSON body, which checks the §2.1 envelope too, or the documented statuses and audio types.
 * ONE function, so the judge room (judge/) can stand in for it.
 *
 * @example
 * verdictOf({ status: 200, operationId: 'listVoices' }, kept); // { ok: true, problems: [], checked: 'body' }
 */
export function verdictOf(entry: Judged, exchange: KeptExchange | undefined): Verdict {
  const { status, operationId } = entry;
  // A dropped connection (status 0) is what `Prefer: fault=reset` asks for; there is no answer to judge.
  if (status === 0 || exchange === undefined) return { ok: true, problems: [], checked: 'nothing' };
  const json = exchange.answerJson;
  if (operationId === null) return envelopeVerdict(status, json);
  if (json !== null) {
    let body: unknown;
    try {
      body = JSON.parse(decoder.decode(json));
    } catch {
      return { ok: false, problems: ['the JSON answer does not parse'], checked: 'body' };
    }
    const problems = validateResponse(operationId, status, body).map(
      (f) => `${f.pointer || '(root)'} ${f.message}`,
    );
    return { ok: problems.length === 0, problems, checked: 'body' };
  }
  const problems: string[] = [];
  if (!documentedStatuses(operationId).includes(status))
    problems.push(`${operationId} does not document HTTP ${status}`);
  const type = exchange.answerHeaders['Content-Type'] ?? '';
  const audio = (Object.values(audioMediaTypes) as string[]).some((t) => type.startsWith(t));
  if (status === 200 && isSynthesis(operationId) && !audio)
    problems.push(`audio expected, got Content-Type "${type}"`);
  return { ok: problems.length === 0, problems, checked: 'status' };
}

const isSynthesis = (operationId: OperationId) =>
  operationId === 'synthesizeSpeech' || operationId === 'streamSpeech';

/** An answer outside the operations (no route, wrong method): the §2.1 refusal envelope. */
function envelopeVerdict(status: number, json: Uint8Array | null): Verdict {
  if (json === null)
    return {
      ok: status >= 400,
      problems: status >= 400 ? [] : [`HTTP ${status} without an operation`],
      checked: 'status',
    };
  try {
    const body = JSON.parse(decoder.decode(json)) as Record<string, unknown>;
    const problems: string[] = [];
    if (body.succeed !== false) problems.push('/succeed must be false on a refusal');
    if (typeof body.error_code !== 'number') problems.push('/error_code must be a number');
    if (typeof body.error_message !== 'string') problems.push('/error_message must be a string');
    return { ok: problems.length === 0, problems, checked: 'body' };
  } catch {
    return { ok: false, problems: ['the JSON answer does not parse'], checked: 'body' };
  }
}
