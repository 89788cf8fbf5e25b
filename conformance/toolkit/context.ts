/**
 * toolkit/: what cases use. CaseContext (here) makes a case's requests and checks every response;
 * actions.ts names the operations of §4, expect.ts the shared assertions, http.ts the one network
 * call, multipart.ts the upload bodies, run-state.ts the state a run shares between its cases.
 * May import checks/, types.ts and openapi/; never cases/, run/, setup/, reporters/ or cli/.
 */
import { apiKeyHeader, type OperationId } from '../../openapi/contract.js';
import { pairingProblems } from '../checks/documented-pairs.js';
import { envelopeProblems } from '../checks/envelope.js';
import { schemaProblems } from '../checks/schema.js';
import type { CaseInfo, Finding, Observation } from '../types.js';
import { type Exchange, type SendOptions, send } from './http.js';
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
}

const envelopeOps: ReadonlySet<OperationId> = new Set([
  'uploadFile',
  'saveVoice',
  'listVoices',
  'deleteVoice',
]);

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
  /** `operation pointer` of schema violations already reported: one finding each per case. */
  private readonly schemaSeen = new Set<string>();

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
    const ex = await send(this.state.fetch, this.request(spec), spec.send);
    if (ex.cutShort !== undefined) {
      this.fail(
        `the response (HTTP ${ex.status}) ended abruptly after ${ex.bytes.byteLength} bytes: ${ex.cutShort}; a complete body was expected`,
        { request: ex.request },
      );
      return ex;
    }
    if (spec.op) this.checkResponse(spec.op, ex);
    return ex;
  }

  /** The automatic checks of `call`, usable on an exchange made another way. */
  checkResponse(op: OperationId, ex: Exchange): void {
    const ok = ex.status >= 200 && ex.status < 300;
    if (!envelopeOps.has(op) && ok) {
      const ct = ex.headers.get('content-type') ?? '';
      this.check(
        /^audio\//i.test(ct),
        `synthesis success has Content-Type ${JSON.stringify(ct)}, not audio/*`,
        {
          request: ex.request,
        },
      );
      return;
    }
    if (ex.truncated) return;
    const ct = ex.headers.get('content-type') ?? '';
    this.check(/json/i.test(ct), `the envelope comes with Content-Type ${JSON.stringify(ct)}, not JSON`, {
      request: ex.request,
    });
    for (const p of envelopeProblems(ex.json, ex.status, {
      dataMayBeNull: op === 'deleteVoice' || op === 'saveVoice',
    })) {
      this.fail(`envelope (§2.1, §7): ${p}`, { request: ex.request });
    }
    if (ex.json === undefined) return;
    const code = (ex.json as { error_code?: unknown }).error_code;
    for (const p of pairingProblems(op, ex.status, code)) this.fail(p, { request: ex.request });
    const schema = schemaProblems(op, ex.status, ex.json);
    if (!schema.documented) this.note(`${ex.request}: HTTP ${ex.status} is not a documented status of ${op}`);
    for (const p of schema.problems) {
      const key = `${op} ${p.pointer}`;
      if (this.schemaSeen.has(key)) continue;
      this.schemaSeen.add(key);
      this.fail(`schema of ${op} ${ex.status}: ${p.pointer || '/'} ${p.message}`, {
        request: ex.request,
        pointer: p.pointer,
      });
    }
  }
}

function resolveKey(ctx: CaseContext, choice: KeyChoice): string | null {
  if (choice === null) return null;
  if (typeof choice === 'object') return choice.raw;
  return ctx.key(choice);
}
