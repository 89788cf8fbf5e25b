import { apiKeyHeader, operationIds } from '../../../openapi/contract.js';
import { type Answer, jsonAnswer } from '../answer/answer.js';
import { fail, ok, render } from '../answer/envelope.js';
import type { CoreRequest, ServiceDeps } from '../context.js';
import { drain } from '../request/request-body.js';
import { type JournalItem, maskKey } from '../state/request-log.js';
import { harOf } from './har.js';
import { exchangeView } from './journal-view.js';

/**
 * The request journal's control operations under /__mock/requests/ (the log itself, GET
 * /__mock/requests, and replay stay in control-api.ts): one request's detail, counting for scripts
 * ("was it called N times"), the HAR export, and clearing the log without resetting the state.
 */
export const journalIndex: readonly { method: string; path: string; does: string }[] = [
  {
    method: 'GET',
    path: '/__mock/requests/<seq>',
    does: 'one logged request in full: its URL with the query, headers (keys masked), JSON body or upload form summary, and the answer: status, headers, JSON body or audio format, duration and size; the Prefer directives that forced it, its X-Mock-Warning, its contract verdict',
  },
  {
    method: 'GET',
    path: '/__mock/requests/count',
    does: 'how many logged requests match: {"count": N}; ?operation=<operationId>, ?status=200 or 4xx or dropped, ?key=<the key, whole or masked>, ?method=, ?path= (all optional, all must match)',
  },
  {
    method: 'GET',
    path: '/__mock/requests/har',
    does: 'the request log as a HAR 1.2 file (keys masked, audio bodies summarised, upload forms as their field names)',
  },
  {
    method: 'POST',
    path: '/__mock/requests/clear',
    does: 'empties the request log and nothing else (also DELETE /__mock/requests); the numbering goes on',
  },
];

const countParams = ['operation', 'status', 'key', 'method', 'path'] as const;
type CountFilter = Partial<Record<(typeof countParams)[number], string>>;

/** The count's filter from a query, or the problem with it (for a 400/10001 that names the fix). */
function countFilter(query: URLSearchParams): CountFilter | string {
  const filter: CountFilter = {};
  for (const [name, value] of query) {
    if (!(countParams as readonly string[]).includes(name))
      return `unknown parameter "${name}"; known: ${countParams.join(', ')}`;
    filter[name as keyof CountFilter] = value;
  }
  const { operation, status } = filter;
  if (operation !== undefined && !(operationIds as readonly string[]).includes(operation))
    return `unknown operation "${operation}"; operations: ${operationIds.join(', ')}`;
  if (status !== undefined && !/^(?:[1-5](?:\d\d|xx)|dropped|0)$/.test(status))
    return `status must be a status (200), a class (4xx) or dropped, got "${status}"`;
  return filter;
}

/** Whether a logged request matches a count's filter; a whole key is compared whole, never echoed. */
function matchesCount({ entry, exchange }: JournalItem, filter: CountFilter): boolean {
  const { operation, status, key, method, path } = filter;
  if (operation !== undefined && entry.operationId !== operation) return false;
  if (method !== undefined && entry.method !== method.toUpperCase()) return false;
  if (path !== undefined && entry.path !== path) return false;
  if (status !== undefined) {
    const shown = entry.status === 0 ? 'dropped' : String(entry.status);
    const wanted = status === '0' ? 'dropped' : status;
    const match = wanted.endsWith('xx') ? shown[0] === wanted[0] && shown !== 'dropped' : shown === wanted;
    if (!match) return false;
  }
  if (key !== undefined) {
    // A masked form (with its ellipsis) matches the masked key; anything else is a whole key.
    if (key.includes('…')) return entry.key === key;
    const sent = exchange?.requestHeaders.get(apiKeyHeader) ?? null;
    return sent === key || (exchange === undefined && entry.key === maskKey(key));
  }
  return true;
}

async function count(request: CoreRequest, deps: ServiceDeps): Promise<Answer> {
  const filter = countFilter(new URL(request.url).searchParams);
  if (typeof filter === 'string') return render(fail('invalidRequest', filter));
  const items = deps.state.requests.items();
  return ok({ count: items.filter((item) => matchesCount(item, filter)).length });
}

function har(deps: ServiceDeps): Answer {
  return jsonAnswer(200, harOf(deps.state.requests.items(), deps.config), {
    'Content-Disposition': 'attachment; filename="voice-kit-requests.har"',
  });
}

function detail(seqText: string, deps: ServiceDeps): Answer {
  const seq = /^\d{1,15}$/.test(seqText) ? Number(seqText) : Number.NaN;
  const item = Number.isFinite(seq) ? deps.state.requests.item(seq) : undefined;
  if (!item) {
    const { lastSeq } = deps.state.requests.position;
    return render(
      fail(
        'routeNotFound',
        `request ${seqText.slice(0, 32)} is not in the log (the last is ${lastSeq}; see GET /__mock/requests)`,
      ),
    );
  }
  return ok(exchangeView(item, deps.config));
}

async function clear(request: CoreRequest, deps: ServiceDeps): Promise<Answer> {
  await drain(request.body);
  const cleared = deps.state.requests.position.size;
  deps.state.requests.clear();
  if (deps.sharedJournal) return ok({ cleared: await deps.sharedJournal.clear() });
  return ok({ cleared });
}

/**
 * Answers a journal operation, given the control path after `/__mock/`; undefined when the path is not
 * one (control-api.ts answers it then).
 */
export function handleJournal(
  request: CoreRequest,
  deps: ServiceDeps,
  path: string,
): Promise<Answer> | undefined {
  const { method } = request;
  if (path === 'requests' && method === 'DELETE') return clear(request, deps);
  if (!path.startsWith('requests/') || path === 'requests/replay') return undefined;
  const rest = path.slice('requests/'.length);
  const allowed = rest === 'clear' ? 'POST' : 'GET';
  if (method !== allowed)
    return Promise.resolve(
      render(
        fail('methodNotAllowed', `method ${method} is not allowed on /__mock/${path}; allowed: ${allowed}`),
        {
          Allow: allowed,
        },
      ),
    );
  if (rest === 'clear') return clear(request, deps);
  if (rest === 'count') return count(request, deps);
  if (rest === 'har') return Promise.resolve(har(deps));
  return Promise.resolve(detail(rest, deps));
}
