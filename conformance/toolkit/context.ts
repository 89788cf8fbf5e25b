/**
 * toolkit/: what cases use. CaseContext (here) makes a case's requests and has the one judge (judged.ts)
 * judge every response and the run's oracle (oracled.ts) compare it with the mock's answer;
 * actions.ts names the operations of §4, expect.ts the shared assertions, http.ts the one network
 * call, multipart.ts the upload bodies, run-state.ts the state a run shares between its cases, views.ts
 * the list, free uses and selectability a write is checked against, before and after.
 * May import types.ts, judge/, openapi/, oracle/ and profile/ (the point a call probes, the recorder it feeds; and
 * music-metadata, in decode-audio.ts); never cases/, run/, setup/, reporters/ or cli/.
 */
import type { ExchangeFacts } from '../../judge/exchange.js';
import type { Verdict } from '../../judge/judge.js';
import { apiKeyHeader, errors, type OperationId } from '../../openapi/contract.js';
import type { PointId } from '../../profile/points.js';

export type { PointId } from '../../profile/points.js';

import type { SeenFacts } from '../../profile/recorder.js';
import type { CaseInfo, Finding, Observation } from '../types.js';
import { answerLimitOf, overLimitText } from './answer-limit.js';
import { type Exchange, type SendOptions, send } from './http.js';
import { factsOf, judgeOf } from './judged.js';
import { oracleVerdicts } from './oracled.js';
import type { KeyName, RunState } from './run-state.js';

/**
 * One conformance case: its data and the `run` function that checks it through a CaseContext.
 *
 * @example
 * const c: ConformanceCase = {
 *   id: 'upload.extension.flac-refused', section: '§4.1', severity: 'must',
 *   title: 'a .flac upload is refused with 400/20012', covers: { codes: [20012] },
 *   run: async (ctx) => { ... },
 * };
 */
export interface ConformanceCase extends CaseInfo {
  run(ctx: CaseContext): Promise<void>;
}

/** Which key a request carries: a named key of the run, a literal string, or none at all. */
export type KeyChoice = KeyName | { readonly raw: string } | null;

/** One request of a case. `op` names the operation whose schema the response is checked against. */
export interface CallSpec {
  readonly op: OperationId | null;
  readonly method: string;
  /** Path under the base URL (`/v1/voice/list`) or an absolute URL (a signed voice_url). */
  readonly path: string;
  readonly key?: KeyChoice;
  readonly query?: Readonly<Record<string, string | number>>;
  readonly json?: unknown;
  readonly body?: BodyInit;
  readonly headers?: Readonly<Record<string, string>>;
  readonly send?: SendOptions;
  /**
   * The spec-silent point (profile/points.ts) this request probes: the run's profile reads its answer
   * as that point's choice. Without it the profile reads only what the answer leaves no doubt about.
   */
  readonly probes?: PointId;
  /** The part of the point's choice it probes (`shortest` / `longest` of the duration bounds). */
  readonly aspect?: string;
}

/** Uploads of one run by the user of the main key (§8: the quota is shared by that user's project keys). */
export interface UserUploads {
  accepted: number;
  refused: number;
}
const userUploads = new WeakMap<RunState, UserUploads>();

/**
 * The uploads the main key's user made in this run so far, accepted and refused. Every named key but
 * `otherOrg` (another organization, so another user) is taken as that user's: counting one too many
 * only makes the quota check more lenient.
 */
export function uploadsOfMainUser(state: RunState): Readonly<UserUploads> {
  return { ...(userUploads.get(state) ?? { accepted: 0, refused: 0 }) };
}

function countUpload(state: RunState, key: KeyChoice | undefined, status: number): void {
  if (key === null || typeof key === 'object' || key === 'otherOrg') return;
  const counts = userUploads.get(state) ?? { accepted: 0, refused: 0 };
  if (status === 200) counts.accepted += 1;
  else if (status !== errors.uploadRateLimited.status) counts.refused += 1;
  userUploads.set(state, counts);
}

/** Rules a case judges itself with what it knows (expectAudio decodes the whole body). */
const judgedElsewhere = new Set(['audio.body', 'audio.pcm-headers', 'stream.progressive']);

/** What a check failure counts as. */
export interface FailOptions {
  readonly level?: 'must' | 'should';
  readonly request?: string;
  readonly pointer?: string;
}

/**
 * What a case's `run` gets: requests with the envelope and schema checked on every JSON response,
 * and a place to record findings and observations. In an observe case every failed check becomes a
 * note: observe cases never fail.
 *
 * @example
 * const ex = await ctx.call({ op: 'listVoices', method: 'GET', path: '/v1/voice/list' });
 * ctx.check(ex.status === 200, 'list answers 200', { request: ex.request });
 */
export class CaseContext {
  readonly findings: Finding[] = [];
  readonly observations: Observation[] = [];
  readonly notes: string[] = [];
  /** `rule seen` of verdicts already reported: one finding each per case. */
  private readonly verdictsSeen = new Set<string>();

  constructor(
    readonly state: RunState,
    readonly kase: CaseInfo,
  ) {}

  /** Record a failed check. */
  fail(message: string, opts: FailOptions = {}): void {
    const where = opts.request ? `${opts.request}: ` : '';
    if (this.kase.severity === 'observe') {
      this.notes.push(`${where}${message}`);
      return;
    }
    const level = this.kase.severity === 'should' ? 'should' : (opts.level ?? 'must');
    this.findings.push({ level, message, ...opts });
  }

  /**
   * A 5xx the case did not ask for (`Prefer: code=…` asks the kit's mock for a fault) is a finding of
   * every case, an observing one too: the contract answers no request with a server error.
   */
  private serverError(req: Request, ex: Exchange): void {
    if (ex.status < 500 || req.headers.has('prefer')) return;
    this.findings.push({
      level: 'must',
      message: `HTTP ${ex.status}: a server error is never the contract's answer to this request (§2.1, §7)`,
      request: ex.request,
    });
  }

  /** Check a condition; record `message` as a failure when it does not hold. */
  check(condition: boolean, message: string, opts: FailOptions = {}): boolean {
    if (!condition) this.fail(message, opts);
    return condition;
  }

  /** Record what the deployment does where the spec is silent. */
  observe(question: string, value: string): void {
    this.observations.push({ question, value });
  }

  note(message: string): void {
    this.notes.push(message);
  }

  /** The value of a named key (the runner only starts a case whose keys are present). */
  key(name: KeyName): string {
    const k = this.state.keys[name];
    if (k === undefined) throw new Error(`key ${name} is not configured`);
    return k;
  }

  /** A fresh voice id under the run prefix, at most 30 characters. */
  newVoiceId(tag: string): string {
    this.state.counter += 1;
    const id = `${this.state.prefix}${tag}${this.state.counter.toString(36)}`.toLowerCase();
    if (id.length > 30) throw new Error(`voice id ${id} is longer than 30 characters`);
    return id;
  }

  /** Build the Request of a call (exported for cases that need the raw Request). */
  request(spec: CallSpec): Request {
    const url = /^https?:\/\//.test(spec.path) ? new URL(spec.path) : new URL(this.state.baseUrl + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, String(v));
    const headers = new Headers(spec.headers);
    const key = spec.key === undefined ? this.state.keys.main : resolveKey(this, spec.key);
    if (key !== null) headers.set(apiKeyHeader, key);
    let body = spec.body;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers };
    if (body !== undefined) init.body = body;
    if (body instanceof ReadableStream) init.duplex = 'half';
    if (this.state.signal) init.signal = this.state.signal;
    return new Request(url, init);
  }

  /**
   * Send a request and check the response: on the envelope endpoints, and on every synthesis failure,
   * the envelope rules and the OpenAPI schema; on a synthesis success, an audio Content-Type.
   */
  async call(spec: CallSpec): Promise<Exchange> {
    const req = this.request(await formAsBytes(spec));
    const limitBytes = spec.send?.limitBytes ?? answerLimitOf(spec.op, spec.json);
    const ex = await send(this.state.fetch, req, { ...spec.send, limitBytes });
    if (ex.overLimit !== undefined) {
      this.fail(overLimitText(spec.op, ex.overLimit), { request: ex.request });
      return ex;
    }
    if (ex.cutShort !== undefined) {
      this.fail(
        `the response (HTTP ${ex.status}) ended abruptly after ${ex.bytes.byteLength} bytes: ${ex.cutShort}; a complete body was expected`,
        { request: ex.request },
      );
      return ex;
    }
    this.serverError(req, ex);
    if (spec.op === 'uploadFile') countUpload(this.state, spec.key, ex.status);
    const facts = factsOf(spec.op ?? undefined, req, spec, ex);
    this.record(facts, spec);
    if (spec.op && !ex.truncated) this.judgeFacts({ ...facts, operationId: spec.op }, ex);
    for (const v of await oracleVerdicts(this.state, spec.op, req, spec, ex)) this.verdict(v, ex, true);
    return ex;
  }

  /** Hand the exchange to the run's profile recorder, with the point it probes when the case says. */
  private record(facts: SeenFacts, spec: Pick<CallSpec, 'probes' | 'aspect'>): void {
    // A request to another host (a signed voice_url) is no exchange of the service.
    if (!facts.path.startsWith('/') || !this.state.recorder) return;
    this.state.recorder.see(facts, {
      case: this.kase.id,
      ...(spec.probes ? { point: spec.probes } : {}),
      ...(spec.aspect ? { aspect: spec.aspect } : {}),
    });
  }

  /**
   * The automatic checks of `call`: the run's judge (judge/) judges the exchange, its request and what
   * it means for the session; each verdict is a finding at the verdict's severity.
   */
  judge(op: OperationId, req: Request, sent: { json?: unknown; body?: BodyInit }, ex: Exchange): void {
    if (ex.truncated) return;
    this.judgeFacts({ ...factsOf(op, req, sent, ex), operationId: op }, ex);
  }

  private judgeFacts(facts: ExchangeFacts, ex: Exchange): void {
    for (const v of judgeOf(this.state).judge(facts)) this.verdict(v, ex);
  }

  /** The checks of `call`, usable on an exchange made another way (the request is not known). */
  checkResponse(op: OperationId, ex: Exchange): void {
    const [method = 'GET', path = '/'] = ex.request.split(' ');
    this.judge(op, new Request(new URL(path, this.state.baseUrl), { method }), {}, ex);
  }

  /**
   * A verdict as a finding. The oracle's (`differential`) are findings of an observing case too: it
   * compares with the contract's model and already lets through what the spec leaves open.
   */
  private verdict(v: Verdict, ex: Exchange, differential = false): void {
    if (judgedElsewhere.has(v.rule)) return;
    const key = `${v.rule} ${v.seen}`;
    if (this.verdictsSeen.has(key)) return;
    this.verdictsSeen.add(key);
    const evidence = v.evidence ? ` (evidence: exchange ${v.evidence.exchange}, ${v.evidence.what})` : '';
    const message = `${v.rule} (${v.section}): ${v.seen}${evidence}`;
    if (differential && this.kase.severity === 'observe')
      this.findings.push({ level: v.severity, message, request: ex.request });
    else this.fail(message, { request: ex.request, level: v.severity });
  }
}

function resolveKey(ctx: CaseContext, choice: KeyChoice): string | null {
  if (choice === null) return null;
  if (typeof choice === 'object') return choice.raw;
  return ctx.key(choice);
}

/**
 * `spec` with a FormData body read into its bytes first, with the Content-Type (and boundary) that
 * goes with them unless the case set one: Node's fetch streams a FormData body from a generator that
 * throws out of the process when the request is aborted mid-body (a Ctrl-C during an upload case).
 * The bytes are the ones fetch would send.
 */
async function formAsBytes(spec: CallSpec): Promise<CallSpec> {
  if (!(spec.body instanceof FormData)) return spec;
  const form = new Response(spec.body);
  const headers: Record<string, string> = { ...spec.headers };
  const named = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (!named) headers['content-type'] = form.headers.get('content-type') ?? 'multipart/form-data';
  return { ...spec, headers, body: new Uint8Array(await form.arrayBuffer()) };
}
