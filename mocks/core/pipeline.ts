import { apiKeyHeader, errors, type OperationId } from '../../openapi/contract.js';
import {
  type Finding,
  matchRoute,
  validateJsonBody,
  validateQuery,
  validateResponse,
} from '../../openapi/validate.js';
import { unixSeconds } from './clock.js';
import type { CoreRequest, ServiceDeps } from './context.js';
import {
  type Answer,
  asResponse,
  BytesAnswer,
  type Failure,
  fail,
  failureAnswer,
  isFailure,
  render,
  StreamAnswer,
} from './envelope.js';
import { operations } from './operation-table.js';
import { drain, readJsonBody } from './request-body.js';
import { applyFaults, parsePreferences, preferredResponse } from './scenario.js';
import { describeFindings, type FindingSource } from './schema-messages.js';
import { findCaller } from './state/tenancy.js';

const jsonOperations: ReadonlySet<OperationId> = new Set(['saveVoice', 'synthesizeSpeech', 'streamSpeech']);

/**
 * Turns schema findings into the most specific catalogue entry (the code and status are the same
 * 10001/400), with a message for people naming the field, the rule and the value received.
 */
function findingsFailure(where: FindingSource, findings: Finding[], received: unknown): Failure {
  const text = describeFindings(where, findings, received);
  const pointers = new Set(findings.map((f) => f.pointer));
  if (pointers.has('/speed') && findings.some((f) => f.keyword === 'minimum'))
    return fail('speedNegative', text);
  if (pointers.has('/generate_text')) return fail('textMissing', text);
  if (pointers.has('/page_size')) return fail('pageSizeOutOfRange', text);
  return fail('invalidRequest', text);
}

// Parsed URLs are shared between requests for the same URL (service.ts), and so is their query.
const queries = new WeakMap<URL, Readonly<Record<string, string>>>();

function queryOf(url: URL): Readonly<Record<string, string>> {
  let query = queries.get(url);
  if (!query) {
    query = Object.freeze(Object.fromEntries(url.searchParams));
    queries.set(url, query);
  }
  return query;
}

/** The answer to a request, and what the pipeline learned about it for the request log. */
export interface Handled {
  answer: Answer;
  operationId: OperationId | null;
}

/**
 * One request through route → auth → scenario (Prefer) → request validation → operation.
 * Never throws for a bad request: every refusal is an envelope from the catalogue.
 */
export async function runPipeline(
  request: CoreRequest,
  deps: ServiceDeps,
  url: URL = new URL(request.url),
): Promise<Handled> {
  const route = matchRoute(request.method, url.pathname);
  if (route.kind === 'not-found') {
    await drain(request.body);
    return {
      answer: render(fail('routeNotFound', `no operation at ${request.method} ${url.pathname}`)),
      operationId: null,
    };
  }
  if (route.kind === 'method-not-allowed') {
    await drain(request.body);
    const message = `method ${request.method} is not allowed on ${url.pathname}; allowed: ${route.allowed.join(', ')}`;
    return {
      answer: render(fail('methodNotAllowed', message), { Allow: route.allowed.join(', ') }),
      operationId: null,
    };
  }
  const { operationId } = route;
  const preferences = parsePreferences(request.headers.get('prefer'));
  const latencyMs = isFailure(preferences) ? 0 : (preferences.latencyMs ?? 0);
  const respond = (answer: Answer | Failure, late = true): Handled | Promise<Handled> => {
    const handled = { answer: isFailure(answer) ? render(answer) : answer, operationId };
    // latency=MS holds back every answer to a known caller; a successful stream answers at once and
    // waits before its first chunk instead (text-to-speech.ts).
    const streamed = operationId === 'streamSpeech' && !isFailure(answer) && answer.status === 200;
    const waits = late && latencyMs > 0 && !streamed;
    // Without a body to drain or a wait, the answer goes back in this turn (most GETs).
    if (request.body === null && !waits) return handled;
    return drain(request.body)
      .then(() => (waits ? deps.sleep(latencyMs) : undefined))
      .then(() => handled);
  };
  const caller = findCaller(deps.config.keys, request.headers.get(apiKeyHeader));
  // The key is checked before any Prefer is honoured, except `code=401`, which asks for this very answer.
  const asks401 = !isFailure(preferences) && preferences.code === errors.missingApiKey.status;
  if (!caller && !asks401) return respond(fail('missingApiKey'), false);
  if (isFailure(preferences)) return respond(preferences, false);
  if (preferences.faults.some((f) => f.kind === 'reset')) return respond(Response.error());
  const preferred =
    preferences.code === undefined ? undefined : preferredResponse(operationId, preferences.code);
  if (preferred) return respond(preferred);
  if (!caller) return respond(fail('missingApiKey'), false);
  const query = queryOf(url);
  const queryFindings = validateQuery(operationId, query);
  if (queryFindings.length > 0) return respond(findingsFailure('query', queryFindings, query));
  let body: unknown;
  if (jsonOperations.has(operationId)) {
    body = await readJsonBody(request);
    if (isFailure(body)) return respond(body);
    const bodyFindings = validateJsonBody(operationId, body);
    if (bodyFindings.length > 0) return respond(findingsFailure('body', bodyFindings, body));
  }
  const context = {
    operationId,
    request,
    url,
    caller,
    pathParams: route.pathParams,
    query,
    body,
    preferences,
    deps,
  };
  const answer = await operations[operationId](context);
  if (preferences.faults.length === 0) return respond(answer);
  const handled = await respond(answer);
  return { ...handled, answer: applyFaults(asResponse(handled.answer), preferences.faults, deps.sleep) };
}

const decoder = new TextDecoder();

/** The JSON text of an answer that is JSON; undefined for any other. */
async function jsonOf(answer: Answer): Promise<string | undefined> {
  if (answer instanceof BytesAnswer) {
    const json = answer.headers['Content-Type']?.startsWith('application/json');
    return json ? decoder.decode(answer.bytes) : undefined;
  }
  if (answer instanceof StreamAnswer) return undefined; // audio
  if (answer.type === 'error' || !answer.headers.get('content-type')?.startsWith('application/json')) {
    return undefined;
  }
  return await answer.clone().text();
}

/**
 * Checks a JSON answer against the OpenAPI description; a violation is a bug of the mock, so it
 * becomes a loud 500/10000 (and is reported to the logger and the caller's list).
 */
export async function checkResponse(
  operationId: OperationId,
  answer: Answer,
  report: (violation: string) => void,
): Promise<Answer> {
  const text = await jsonOf(answer);
  if (text === undefined) return answer;
  const findings = validateResponse(operationId, answer.status, JSON.parse(text));
  if (findings.length === 0) return answer;
  const detail = findings.map((f) => `${f.pointer || '(root)'} ${f.message}`).join('; ');
  const violation = `${operationId} answered HTTP ${answer.status} that breaks the OpenAPI description: ${detail}`;
  report(violation);
  return failureAnswer(errors.unexpected.status, errors.unexpected.code, `mock bug: ${violation}`);
}

/** The request-log line of a handled request. */
export function logEntry(
  request: CoreRequest,
  handled: Handled,
  deps: ServiceDeps,
  url: URL = new URL(request.url),
) {
  return {
    at: unixSeconds(deps.clock),
    method: request.method,
    path: url.pathname,
    key: request.headers.get(apiKeyHeader),
    status: handled.answer.status,
    operationId: handled.operationId,
  };
}
