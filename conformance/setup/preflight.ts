/**
 * One request per key before any case: a base URL that does not answer at all (a typo, a stopped
 * server, a VPN left off) is a setup mistake to report once, not a run of a hundred cases that each
 * "threw: fetch failed"; so is a key the deployment refuses with 401 (a rotated CI secret, a key of
 * another environment), which would fail half the cases as if the deployment were broken. Any other
 * HTTP answer, even 404 or 500, lets the run go on: judging it is the cases' job.
 */
import { apiKeyHeader } from '../../openapi/contract.js';
import { type FetchLike, limitedText, withTimeout } from '../toolkit/http.js';
import { ConformanceSetupError } from './setup-error.js';

/** How long the preflight waits for an answer: generous for a cold staging deployment. */
export const preflightTimeoutMs = 20_000;

interface ErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/**
 * Why a request failed, in words: undici throws "fetch failed" and keeps the reason in `cause` (an
 * AggregateError when every address of a host was refused), so the chain is walked for the deepest
 * code and message.
 *
 * @example
 * networkCause(await fetch('http://127.0.0.1:9').catch((e) => e)); // 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)'
 */
export function networkCause(error: unknown, timeoutMs = preflightTimeoutMs): string {
  let e = error as ErrorLike | undefined;
  let code: string | undefined;
  let message: string | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    if (e.name === 'TimeoutError' || e.name === 'RequestTimeoutError')
      return `no answer within ${timeoutMs / 1000} s (timeout)`;
    if (typeof e.code === 'string') code = e.code;
    if (typeof e.message === 'string' && e.message !== '' && e.message !== 'fetch failed')
      message = e.message;
    const inner: unknown = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    e = inner as ErrorLike | undefined;
  }
  // undici's word for the ports the Fetch standard blocks (1, 9, 25, 6000...): say what it means.
  if (message === 'bad port')
    return 'the port is one fetch refuses to connect to (a blocked port of the Fetch standard)';
  if (code && message && !message.includes(code)) return `${code} (${message})`;
  if (message) return message;
  return code ?? String(error);
}

/**
 * An error's message, with the cause it keeps apart: undici's "fetch failed" says why (ECONNREFUSED,
 * ENOTFOUND...) only in `cause`. A message without a cause is returned as it is.
 *
 * @example
 * errorText(await fetch('http://127.0.0.1:4019').catch((e) => e)); // 'fetch failed: connect ECONNREFUSED 127.0.0.1:4019'
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.cause === undefined || error.cause === null) return error.message;
  const cause = networkCause(error);
  return error.message.includes(cause) ? error.message : `${error.message}: ${cause}`;
}

/** `401/10003`: the status and, when the body is the §2.1 envelope, its error_code. */
function statusText(status: number, body: string): string {
  try {
    const code = (JSON.parse(body) as { error_code?: unknown } | null)?.error_code;
    return typeof code === 'number' ? `${status}/${code}` : String(status);
  } catch {
    return String(status);
  }
}

interface PreflightOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * The other keys of the run, by the option that names them (`keys.otherOrg`), each checked with
   * one list request too: a refused one would fail its cases as if the deployment were at fault.
   */
  readonly keys?: Readonly<Record<string, string>>;
}

/**
 * GET /v1/voice/list (free: a list, one item) with the main key, then with each of `opts.keys`.
 * Resolves when every key gets an HTTP answer other than 401; throws a ConformanceSetupError naming
 * the cause when no answer comes (option `baseUrl`) or a key is refused (option `apiKey`, or the
 * key's name in `opts.keys`).
 *
 * @example
 * await preflight((req) => fetch(req), 'https://staging.example.com', key, { keys: { 'keys.otherOrg': other } });
 */
export async function preflight(
  fetchFn: FetchLike,
  baseUrl: string,
  apiKey: string,
  opts: PreflightOptions = {},
): Promise<void> {
  for (const [option, key] of [['apiKey', apiKey] as const, ...Object.entries(opts.keys ?? {})]) {
    const answer = await listWith(fetchFn, baseUrl, key, opts);
    if (answer === undefined) return;
    if (answer.status === 401)
      throw new ConformanceSetupError(
        option,
        `is refused by ${baseUrl}: ${statusText(answer.status, answer.body)} to GET /v1/voice/list; check that the key is current (not rotated or revoked) and belongs to this deployment's environment`,
      );
  }
}

/** One list request with `key`: its status and body; undefined when Ctrl-C stopped it. */
async function listWith(
  fetchFn: FetchLike,
  baseUrl: string,
  key: string,
  opts: PreflightOptions,
): Promise<{ status: number; body: string } | undefined> {
  const timeoutMs = opts.timeoutMs ?? preflightTimeoutMs;
  try {
    const res = await withTimeout(
      fetchFn,
      () => timeoutMs,
    )(
      new Request(`${baseUrl}/v1/voice/list?page_size=1`, {
        headers: { [apiKeyHeader]: key },
        ...(opts.signal ? { signal: opts.signal } : {}),
      }),
    );
    // The body is read so the connection is free for the first case (and for its error_code).
    return { status: res.status, body: await limitedText(res, 65_536).catch(() => '') };
  } catch (e) {
    // Ctrl-C during the preflight is an interruption: the run reports it as aborted.
    if (opts.signal?.aborted) return undefined;
    throw new ConformanceSetupError(
      'baseUrl',
      `${baseUrl}: no HTTP answer to GET /v1/voice/list: ${networkCause(e, timeoutMs)}`,
    );
  }
}
