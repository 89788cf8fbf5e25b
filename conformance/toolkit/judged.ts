/**
 * The suite's side of the one judge (judge/): the facts of a case's exchange, built from the request the
 * case sent and the answer it read whole, and one judge per run, so the session rules judge the run's
 * own traffic. The suite sees all traffic of its own run prefix (no other client touches those voices),
 * never the whole deployment: voice rules are `must` for its own voices, the rest `should`.
 */
import type { ExchangeFacts, FormPart, HeaderMap, KeptBody } from '../../judge/exchange.js';
import { createJudge, type Judge } from '../../judge/judge.js';
import type { KeyScope } from '../../judge/session.js';
import type { OperationId } from '../../openapi/contract.js';
import type { SeenFacts } from '../../profile/recorder.js';
import type { Exchange } from './http.js';
import type { RunKeys, RunState } from './run-state.js';

const judges = new WeakMap<RunState, Judge>();
let sequence = 0;

/**
 * Where the suite's named keys belong, as the preflight describes them: the same organization, project
 * and environment but for the one thing each `other*` key changes. Off when two names share one key.
 */
export function suiteTenancy(keys: RunKeys): Record<string, KeyScope> | undefined {
  const base = { organization: 'org', project: 'project', environment: 'env' };
  const scopes: Record<string, KeyScope> = {};
  const named: Array<[string | undefined, KeyScope]> = [
    [keys.main, base],
    [keys.noClone, base],
    [keys.otherProject, { ...base, project: 'other-project' }],
    [keys.otherEnv, { ...base, environment: 'other-env' }],
    [keys.otherOrg, { organization: 'other-org', project: 'other-org-project', environment: 'env' }],
  ];
  for (const [key, scope] of named) {
    if (key === undefined) continue;
    if (scopes[key] && scopes[key] !== base) return undefined;
    scopes[key] = scope;
  }
  return scopes;
}

/** The run's one judge. */
export function judgeOf(state: RunState): Judge {
  let judge = judges.get(state);
  if (!judge) {
    const keys = suiteTenancy(state.keys);
    judge = createJudge({
      pcmHeaders: state.pcmHeaderNames,
      completeView: false,
      ownVoice: (id) => id.startsWith(state.prefix),
      ...(keys ? { keys } : {}),
    });
    judges.set(state, judge);
  }
  return judge;
}

const headerMap = (headers: Headers): HeaderMap =>
  Object.fromEntries([...headers].map(([k, v]) => [k.toLowerCase(), v]));

function requestJson(json: unknown, body: BodyInit | undefined): KeptBody {
  if (json !== undefined) return { kind: 'json', value: json };
  if (typeof body !== 'string') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(body) };
  } catch (e) {
    return { kind: 'not-json', error: (e as Error).message };
  }
}

function formOf(body: BodyInit | undefined): ExchangeFacts['form'] {
  if (!(body instanceof FormData)) return undefined;
  const parts: FormPart[] = [];
  for (const [name, value] of body) {
    if (typeof value === 'string')
      parts.push({
        name,
        filename: undefined,
        bytes: new TextEncoder().encode(value).byteLength,
        text: value.slice(0, 256),
      });
    else parts.push({ name, filename: value.name, bytes: value.size });
  }
  return { parts, complete: true, error: undefined };
}

/**
 * The facts of one exchange of a case (`op` undefined: a path or method no operation has, which only the
 * profile recorder reads). Audio framing is left to expectAudio, which decodes it whole.
 */
export function factsOf(
  op: OperationId | undefined,
  req: Request,
  sent: { json?: unknown; body?: BodyInit },
  ex: Exchange,
): SeenFacts {
  const url = new URL(req.url);
  sequence += 1;
  const responseJson: KeptBody =
    ex.json !== undefined
      ? { kind: 'json', value: ex.json }
      : ex.bytes.byteLength === 0
        ? { kind: 'none' }
        : { kind: 'not-json', error: 'the body does not parse as JSON' };
  return {
    seq: sequence,
    operationId: op,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    query: Object.fromEntries(url.searchParams),
    requestHeaders: headerMap(req.headers),
    requestJson: requestJson(sent.json, sent.body),
    form: formOf(sent.body),
    status: ex.status,
    responseHeaders: headerMap(ex.headers),
    responseJson,
    audio: undefined,
    // Stream timing is judged by the stream cases, which know what they asked for.
    timing: { waitMs: 0, spanMs: 0, chunks: ex.reads },
  };
}
