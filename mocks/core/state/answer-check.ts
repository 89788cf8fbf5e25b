import type { KeptBody } from '../../../judge/exchange.js';
import { judgeOwnAnswer, type OwnChoices } from '../../../judge/judge.js';
import type { OperationId } from '../../../openapi/contract.js';
import type { KeptExchange } from './exchange.js';

/**
 * Whether one logged answer keeps the contract. The mock's own answers always should: a row whose
 * verdict is not ok is a bug report. `checked` says how much could be judged: the whole JSON body,
 * or (for a body too large to keep, audio, a dropped connection) its status and type only.
 */
export interface AnswerCheck {
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
 * The contract verdict of one exchange: the judge's exchange rules (judge/, the same the proxy and the
 * suite apply) on the answer, holding the mock to its own recorded choices where the spec is open, as
 * the mock's response check does. The request's side is not judged here (the log keeps only part of it).
 *
 * @example
 * answerCheckOf({ status: 200, operationId: 'listVoices' }, kept); // { ok: true, problems: [], checked: 'body' }
 */
export function answerCheckOf(
  entry: Judged,
  exchange: KeptExchange | undefined,
  own: OwnChoices = {},
): AnswerCheck {
  const { status, operationId } = entry;
  // A dropped connection (status 0) is what `Prefer: fault=reset` asks for; there is no answer to judge.
  if (status === 0 || exchange === undefined) return { ok: true, problems: [], checked: 'nothing' };
  const json = exchange.answerJson;
  if (operationId === null) return envelopeCheck(status, json);
  const responseJson = keptBody(json, exchange.answerBytes);
  if (responseJson.kind === 'not-json')
    return { ok: false, problems: ['the JSON answer does not parse'], checked: 'body' };
  const headers = Object.fromEntries(
    Object.entries(exchange.answerHeaders).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const verdicts = judgeOwnAnswer({ operationId, status, headers, json: responseJson }, own);
  const problems = verdicts.map((v) => `${v.rule} (${v.section}): ${v.seen}`);
  return { ok: problems.length === 0, problems, checked: responseJson.kind === 'json' ? 'body' : 'status' };
}

/** The answer's JSON as the judge reads it: parsed, not kept (too large, or audio), or broken. */
function keptBody(json: Uint8Array | null, bytes: number | null): KeptBody {
  if (json === null) return bytes !== null && bytes > 0 ? { kind: 'too-large', bytes } : { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(decoder.decode(json)) };
  } catch (error) {
    return { kind: 'not-json', error: (error as Error).message };
  }
}

/** An answer outside the operations (no route, wrong method): the §2.1 refusal envelope. */
function envelopeCheck(status: number, json: Uint8Array | null): AnswerCheck {
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
