import { judgeOwnAnswer, type OwnChoices } from '../../judge/judge.js';
import { apiKeyHeader, errors, type OperationId } from '../../openapi/contract.js';
import { matchRoute, type SchemaProblem, validateJsonBody, validateQuery } from '../../openapi/validate.js';
import { type Answer, BytesAnswer, DroppedAnswer, dropped } from './answer/answer.js';
import { excerpt, type Failure, fail, failureAnswer, isFailure, render } from './answer/envelope.js';
import type { CoreRequest, OperationContext, ServiceDeps } from './context.js';
import { operations } from './operation-table.js';
import { unixSeconds } from './platform/clock.js';
import { drain, jsonBodyCap, readJsonBody } from './request/request-body.js';
import {
  applyFaults,
  noPreferences,
  type Preferences,
  parsePreferences,
  preferredResponse,
} from './request/scenario.js';
import { describeFindings, type FindingSource } from './request/schema-messages.js';
import type { Target } from './request/target.js';
import type { KeptMap } from './state/kept-map.js';
import { maskKey, type NewRequestLogEntry } from './state/request-log.js';
import { type Caller, findCaller } from './state/tenancy.js';

const jsonOperations: ReadonlySet<OperationId> = new Set(['saveVoice', 'synthesizeSpeech', 'streamSpeech']);

/**
 * Turns schema findings into the most specific catalogue entry (the code and status are the same
 * 10001/400), with a message for people naming the field, the rule and the value received.
 */
function findingsFailure(where: FindingSource, findings: SchemaProblem[], received: unknown): Failure {
  const text = describeFindings(where, findings, received);
  const pointers = new Set(findings.map((f) => f.pointer));
  if (pointers.has('/speed') && findings.some((f) => f.keyword === 'minimum'))
    return fail('speedNegative', text);
  if (pointers.has('/generate_text')) return fail('textMissing', text);
  if (pointers.has('/page_size')) return fail('pageSizeOutOfRange', text);
  return fail('invalidRequest', text);
}

/**
 * A synthesis body whose `text` stands for generate_text (`text-alias`, when a profile says the
 * deployment accepts it): `text` without generate_text is read as generate_text; with both,
 * generate_text wins.
 */
function aliased(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { text, ...rest } = body as Record<string, unknown>;
  if (text === undefined) return body;
  return 'generate_text' in rest || typeof text !== 'string' ? rest : { ...rest, generate_text: text };
}

/** The answer to a request, and what the pipeline learned about it for the request log. */
export interface Handled {
  answer: Answer;
  operationId: OperationId | null;
  /** A synthesis request's key and JSON body, for the request log to send it again (replay). */
  sent?: { key: string; body: unknown };
  /** The JSON body as read, valid or not, for the request journal; undefined without one. */
  received?: unknown;
}

const synthesisOperations: ReadonlySet<OperationId> = new Set(['synthesizeSpeech', 'streamSpeech']);

/**
 * One request through route → auth → scenario (Prefer) → request validation → operation.
 * Never rejects for a bad request: every refusal is an envelope from the catalogue.
 */
export async function runPipeline(request: CoreRequest, deps: ServiceDeps, target: Target): Promise<Handled> {
  const { url, pathname } = target;
  const route = matchRoute(request.method, pathname);
  if (route.kind === 'not-found') {
    const message = `no operation at ${request.method} ${excerpt(pathname)}`;
    const answer = render(fail('routeNotFound', message), undefined, deps.calibration.refusals);
    await afterDrain(request);
    return { answer, operationId: null };
  }
  if (route.kind === 'method-not-allowed') {
    const message = `method ${request.method} is not allowed on ${excerpt(pathname)}; allowed: ${route.allowed.join(', ')}`;
    await afterDrain(request);
    return {
      answer: render(
        fail('methodNotAllowed', message),
        { Allow: route.allowed.join(', ') },
        deps.calibration.refusals,
      ),
      operationId: null,
    };
  }
  const { operationId } = route;
  const preferences = parsePreferences(request.headers.get('prefer'));
  const latencyMs = isFailure(preferences) ? 0 : (preferences.latencyMs ?? 0);
  const flow = new Flow(operationId, request, url, route.pathParams, deps, latencyMs);
  const caller = findCaller(deps.callers, request.headers.get(apiKeyHeader));
  // The key is checked before any Prefer is honoured, except `code=401`, which asks for this very answer.
  const asks401 = !isFailure(preferences) && preferences.code === errors.missingApiKey.status;
  if (!caller && !asks401) return flow.respond(fail('missingApiKey'), false);
  if (isFailure(preferences)) return flow.respond(preferences, false);
  flow.preferences = preferences;
  if (preferences.faults.some((f) => f.kind === 'reset')) return flow.respond(dropped);
  if (preferences.code !== undefined) {
    // A 429 asked for carries Retry-After as a real refusal does, counted from the caller's own uploads.
    const headers =
      caller && preferences.code === 429 && deps.calibration.uploadRetryAfter
        ? { 'Retry-After': String(deps.state.rateLimit.retryAfterSeconds(caller.user, deps.clock.now())) }
        : undefined;
    const preferred = preferredResponse(operationId, preferences.code, headers);
    if (preferred) return flow.respond(preferred);
  }
  if (!caller) return flow.respond(fail('missingApiKey'), false);
  flow.caller = caller;
  if (route.malformedParam !== undefined) {
    const value = route.pathParams[route.malformedParam] ?? '';
    const message = `${route.malformedParam} ${JSON.stringify(value.slice(0, 64))} is not valid percent-encoding`;
    return flow.respond(fail('invalidRequest', message));
  }
  const { query } = target;
  flow.query = query;
  const queryFindings = validateQuery(operationId, query);
  if (queryFindings.length > 0) return flow.respond(findingsFailure('query', queryFindings, query));
  // Awaited, not returned: an async function that returns a promise takes two more turns to settle.
  if (!jsonOperations.has(operationId)) return await flow.operate();
  const read = await readJsonBody(request, jsonBodyCap(deps.config.maxTextLength));
  if (isFailure(read)) return flow.respond(read);
  flow.received = read;
  const body = deps.calibration.textAlias && synthesisOperations.has(operationId) ? aliased(read) : read;
  const bodyFindings = validateJsonBody(operationId, body);
  if (bodyFindings.length > 0) return flow.respond(findingsFailure('body', bodyFindings, body));
  flow.body = body;
  return flow.operate();
}

/**
 * One routed request on its way through the pipeline; once it has passed every check, it is also
 * the context its operation is called with. One object per request instead of a context and a
 * closure per step: every list request makes one.
 */
class Flow implements OperationContext {
  caller!: Caller;
  query: Readonly<Record<string, string>> = noQuery;
  preferences: Preferences = noPreferences;
  body: unknown;
  /** The JSON body as read, before it was validated (the journal shows what was sent, valid or not). */
  received: unknown;

  constructor(
    readonly operationId: OperationId,
    readonly request: CoreRequest,
    readonly url: URL,
    readonly pathParams: Readonly<Record<string, string>>,
    readonly deps: ServiceDeps,
    private readonly latencyMs: number,
  ) {}

  /** The operation's answer, with the faults Prefer asked for. */
  async operate(): Promise<Handled> {
    // Most operations answer at once (the list): only a promise is waited for.
    const made = operations[this.operationId](this);
    const handled = await this.respond(made instanceof Promise ? await made : made);
    const { faults } = this.preferences;
    if (faults.length === 0 || handled.answer instanceof DroppedAnswer) return handled;
    return { ...handled, answer: applyFaults(handled.answer, faults, this.deps.sleep) };
  }

  /** The answer as handled, once the body is drained and any `latency=MS` waited (unless `late` is false). */
  async respond(answer: Answer | Failure, late = true): Promise<Handled> {
    const { operationId, request, latencyMs } = this;
    const refusals = this.deps.calibration.refusals;
    const handled: Handled = {
      answer: isFailure(answer) ? render(answer, undefined, refusals) : answer,
      operationId,
    };
    if (this.body !== undefined && synthesisOperations.has(operationId))
      handled.sent = { key: this.caller.key, body: this.body };
    if (this.received !== undefined) handled.received = this.received;
    // latency=MS holds back every answer to a known caller; a successful stream answers at once and
    // waits before its first chunk instead (text-to-speech.ts).
    const streamed = operationId === 'streamSpeech' && !isFailure(answer) && answer.status === 200;
    if (hasBodyLeft(request)) await drain(request.body);
    if (late && latencyMs > 0 && !streamed) await this.deps.sleep(latencyMs);
    return handled;
  }
}

const noQuery: Readonly<Record<string, string>> = Object.freeze({});

/** Whether a body is left to drain (none for most GETs, nor for one read whole). */
const hasBodyLeft = (request: CoreRequest): boolean =>
  request.bodyBytes === undefined && request.body !== null;

/** Drains what is left of the request body. */
async function afterDrain(request: CoreRequest): Promise<void> {
  if (hasBodyLeft(request)) await drain(request.body);
}

const decoder = new TextDecoder();

/** The JSON text of an answer that is JSON; undefined for any other (audio, faults, none). */
function jsonOf(answer: Answer): string | undefined {
  if (!(answer instanceof BytesAnswer)) return undefined;
  return answer.headers['Content-Type']?.startsWith('application/json')
    ? decoder.decode(answer.bytes)
    : undefined;
}

/**
 * Checks a JSON answer with the judge's exchange rules (judge/: envelope, schema, stated pairs, status,
 * Content-Type, list pages), held to the kit's own recorded choices where the spec is open; a violation is a bug of the mock, so it becomes a loud 500/10000 (and is
 * reported to the logger and the caller's list). The request is not at hand here: the rules that judge
 * it (a missing key, request and session rules) are the suite's and the proxy's.
 */
export async function checkResponse(
  operationId: OperationId,
  answer: Answer,
  report: (violation: string) => void,
  own: OwnChoices = {},
): Promise<Answer> {
  const text = jsonOf(answer);
  if (text === undefined || !(answer instanceof BytesAnswer)) return answer;
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const verdicts = judgeOwnAnswer(
    {
      operationId,
      status: answer.status,
      headers,
      json: { kind: 'json', value: JSON.parse(text) },
    },
    own,
  );
  if (verdicts.length === 0) return answer;
  const detail = verdicts.map((v) => `${v.rule} (${v.section}): ${v.seen}`).join('; ');
  const violation = `${operationId} answered HTTP ${answer.status} that breaks the contract: ${detail}`;
  report(violation);
  return failureAnswer(errors.unexpected.status, errors.unexpected.code, `mock bug: ${violation}`);
}

/** The request-log line of a handled request. */
export function logEntry(
  request: CoreRequest,
  handled: Handled,
  deps: ServiceDeps,
  path: string = new URL(request.url).pathname,
  durationMs: number | null = null,
): NewRequestLogEntry {
  const { answer } = handled;
  const refusal = answer instanceof BytesAnswer && answer.status >= 400 ? envelopeError(answer) : undefined;
  return {
    at: unixSeconds(deps.clock),
    method: request.method,
    path,
    key: maskedKey(request.headers.get(apiKeyHeader), deps.state.caches.maskedKeys),
    status: answer.status,
    operationId: handled.operationId,
    durationMs,
    errorCode: refusal?.code ?? null,
    errorMessage: refusal?.message ?? null,
  };
}

/** `maskKey` of a key, made once per key sent (three strings a request otherwise). */
function maskedKey(key: string | null, kept: KeptMap<string, string | null>): string | null {
  if (key === null) return null;
  let masked = kept.get(key);
  if (masked === undefined) {
    masked = maskKey(key);
    kept.set(key, masked);
  }
  return masked;
}

/** The error_code and error_message of a refusal's envelope (read only for refusals, which are small). */
function envelopeError(answer: BytesAnswer): { code: number; message: string } | undefined {
  try {
    const body = JSON.parse(decoder.decode(answer.bytes)) as {
      error_code?: unknown;
      error_message?: unknown;
    };
    if (typeof body.error_code !== 'number') return undefined;
    return {
      code: body.error_code,
      message: typeof body.error_message === 'string' ? body.error_message : '',
    };
  } catch {
    return undefined;
  }
}
