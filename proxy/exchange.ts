/**
 * One exchange as it passes: fed each chunk of the request and of the answer in the turn it passes
 * (never holding one back), it keeps only what the rules need, bounded: JSON bodies up to a cap, the
 * audio watch's few bytes, the multipart counter's carry, three timestamps and a chunk count.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { boundaryOf, isFormData } from '../common/multipart/head.js';
import { maskUrl } from '../common/secrets.js';
import { audioKindOf, pcmLayoutOf } from '../judge/audio.js';
import { AudioWatch } from '../judge/audio-watch.js';
import type { ExchangeFacts, KeptBody } from '../judge/exchange.js';
import type { Judge, Verdict } from '../judge/judge.js';
import { rules } from '../judge/rules.js';
import { type OperationId, upload } from '../openapi/contract.js';
import { matchRoute, validateJsonBody, validateQuery } from '../openapi/validate.js';
import type { ProfileRecorder, SeenFacts } from '../profile/recorder.js';
import { budgetNote, type JudgeBudget } from './judge-budget.js';
import { MultipartCounter } from './multipart-count.js';
import type { ExchangeRecord } from './types.js';

/** The decoders of the Content-Encodings a deployment may compress JSON with (RFC 9110 §8.4.1). */
const decoders: Readonly<Record<string, (b: Buffer, o: { maxOutputLength: number }) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Keeps a JSON body up to `limit` bytes; beyond it only counts. A compressed body (`encoding`) is
 * kept as it came, up to the limit, and decoded at the end into at most `limit` bytes: the bytes pass
 * to the client unchanged, and a body that inflates past the cap is noted, never held. Every byte kept
 * is taken from the proxy's one `budget`; when it has no room the body is let go (`starved`).
 */
class JsonKeeper {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private kept = 0;
  /** The budget had no room: the body is not judged. */
  starved = false;
  constructor(
    private readonly limit: number,
    private readonly budget: JudgeBudget,
    private readonly encoding: string | undefined = undefined,
  ) {}
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit || this.starved) {
      this.drop();
      return;
    }
    if (!this.budget.take(chunk.length)) {
      this.starved = true;
      this.drop();
      return;
    }
    this.kept += chunk.length;
    this.chunks.push(chunk);
  }
  /** Lets go of what is kept and gives its bytes back to the budget. */
  drop(): void {
    this.budget.give(this.kept);
    this.kept = 0;
    this.chunks = [];
  }
  finish(): KeptBody {
    if (this.bytes > this.limit || this.starved) return { kind: 'too-large', bytes: this.bytes };
    if (this.bytes === 0) return { kind: 'none' };
    let raw: Buffer = Buffer.concat(this.chunks, this.bytes);
    this.drop();
    const encoding = this.encoding?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      const decode = decoders[encoding];
      if (!decode)
        return { kind: 'not-json', error: `Content-Encoding ${encoding} is not one the proxy decodes` };
      try {
        raw = decode(raw, { maxOutputLength: this.limit + 1 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          return { kind: 'too-large', bytes: this.limit + 1 };
        return {
          kind: 'not-json',
          error: `the ${encoding} body does not decode: ${(error as Error).message}`,
        };
      }
      if (raw.length > this.limit) return { kind: 'too-large', bytes: raw.length };
    }
    const text = raw.toString('utf8');
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch (error) {
      return { kind: 'not-json', error: (error as Error).message };
    }
  }
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const isJson = (ct: string | undefined) => /^application\/([\w.+-]*\+)?json\b/i.test((ct ?? '').trim());

export interface ObserverOptions {
  readonly jsonLimitBytes: number;
  /** The proxy's one budget of bytes kept for judging, shared by all exchanges. */
  readonly budget: JudgeBudget;
  /** The session's one judge: exchanges are handed to it in the order they end. */
  readonly judge: Judge;
  /** --write-profile: every exchange with an answer is read for the spec-silent points, no hint given. */
  readonly recorder?: ProfileRecorder;
}

/**
 * The observer of one exchange.
 *
 * @example
 * const ex = new ExchangeObserver(1, req.method, req.url, req.headers, options);
 * req.on('data', (c) => ex.requestChunk(c));
 */
export class ExchangeObserver {
  readonly record: ExchangeRecord;
  private readonly operationId: OperationId | undefined;
  private readonly query: Record<string, string>;
  private readonly started = performance.now();
  private requestEndAt: number | undefined;
  private firstByteAt: number | undefined;
  private lastByteAt: number | undefined;
  private requestJson: JsonKeeper | undefined;
  private form: MultipartCounter | undefined;
  private responseJson: JsonKeeper | undefined;
  private audio: AudioWatch | undefined;
  private responseHeaders: IncomingHttpHeaders = {};
  private done = false;

  /** The facts of a complete exchange the judge judged (what `--shadow` compares); undefined otherwise. */
  judged: ExchangeFacts | undefined;

  /** Whether `end` was called. */
  get ended(): boolean {
    return this.done;
  }

  constructor(
    id: number,
    method: string,
    url: string,
    private readonly requestHeaders: IncomingHttpHeaders,
    private readonly options: ObserverOptions,
  ) {
    // A target that is no URL (`//[`) still passes on: the upstream answers it, the proxy only notes it.
    const parsed = URL.parse(url, 'http://proxy.invalid');
    this.query = parsed ? Object.fromEntries(parsed.searchParams) : {};
    const route = parsed ? matchRoute(method, parsed.pathname) : undefined;
    this.operationId = route?.kind === 'match' ? route.operationId : undefined;
    this.record = {
      id,
      startedAt: new Date().toISOString(),
      method,
      // What the reports and violations show: a key or token in the query is masked (common/secrets.ts).
      path: maskUrl(url),
      operationId: this.operationId ?? null,
      status: null,
      contentType: null,
      requestBytes: 0,
      responseBytes: 0,
      chunks: 0,
      ttfbMs: null,
      durationMs: null,
      audioSeconds: null,
      aborted: null,
      upstreamError: null,
      requestProblems: [],
      notes: [],
      violations: 0,
    };
    if (!this.operationId) {
      this.record.notes.push(
        !parsed || !route
          ? `the request target ${JSON.stringify(url)} is not a URL: not judged`
          : route.kind === 'method-not-allowed'
            ? `${method} is not an operation of ${parsed.pathname} (allowed: ${route.allowed.join(', ')}): not judged`
            : `${parsed.pathname} is no path of the contract: not judged`,
      );
      return;
    }
    const op = this.operationId;
    for (const f of validateQuery(op, this.query))
      this.record.requestProblems.push(`query ${f.pointer || '/'} ${f.message}`);
    const ct = first(requestHeaders['content-type']) ?? '';
    if (op === 'uploadFile') {
      const boundary = isFormData(ct) ? boundaryOf(ct) : undefined;
      if (boundary) this.form = new MultipartCounter(boundary);
      else
        this.record.requestProblems.push(
          `Content-Type ${JSON.stringify(ct)} is not multipart/form-data with a boundary (§4.1)`,
        );
    } else if (op === 'saveVoice' || op === 'synthesizeSpeech' || op === 'streamSpeech') {
      if (isJson(ct)) this.requestJson = new JsonKeeper(options.jsonLimitBytes, options.budget);
      else
        this.record.requestProblems.push(
          `Content-Type ${JSON.stringify(ct)} is not application/json (§4.2, §4.5)`,
        );
    }
    const key = first(requestHeaders['x-api-key']);
    if (!key?.trim()) this.record.requestProblems.push('no X-API-Key header (§5.1)');
  }

  requestChunk(chunk: Buffer): void {
    this.record.requestBytes += chunk.length;
    if (!this.done) this.requestJson?.push(chunk); // after the end nothing is kept: the budget is settled
    this.form?.push(chunk);
  }

  requestEnd(): void {
    this.requestEndAt = performance.now();
  }

  responseHead(status: number, headers: IncomingHttpHeaders): void {
    this.record.status = status;
    this.responseHeaders = headers;
    const ct = first(headers['content-type']);
    this.record.contentType = ct ?? null;
    if (!this.operationId) {
      // An answer to a path or method no operation has says how the upstream chose to refuse it.
      if (this.options.recorder) this.responseJson = this.jsonKeeper(headers);
      return;
    }
    const kind = audioKindOf(ct);
    const encoding = first(headers['content-encoding'])?.trim().toLowerCase();
    if (kind && status >= 200 && status < 300 && encoding && encoding !== 'identity') {
      this.record.notes.push(
        `the audio is sent with Content-Encoding ${encoding}: its framing was not checked`,
      );
    } else if (kind && status >= 200 && status < 300) {
      const pcm =
        kind === 'pcm' ? pcmLayoutOf(headers, this.options.judge.options.pcmHeaders).layout : undefined;
      this.audio = new AudioWatch(kind, { streamed: this.operationId === 'streamSpeech', pcm });
    } else this.responseJson = this.jsonKeeper(headers);
  }

  private jsonKeeper(headers: IncomingHttpHeaders): JsonKeeper {
    return new JsonKeeper(
      this.options.jsonLimitBytes,
      this.options.budget,
      first(headers['content-encoding']),
    );
  }

  responseChunk(chunk: Buffer): void {
    const now = performance.now();
    this.firstByteAt ??= now;
    this.lastByteAt = now;
    this.record.chunks++;
    this.record.responseBytes += chunk.length;
    this.audio?.push(chunk);
    if (!this.done) this.responseJson?.push(chunk);
  }

  /** What an answer the upstream broke off shows: how much came of what its head promised. */
  private cutFinding(error: string | undefined): Verdict {
    const length = this.responseHeaders['content-length'];
    const promised =
      typeof length === 'string' ? `of the ${length} bytes its Content-Length promised` : 'and no last chunk';
    const why = error ? ` (${error})` : '';
    const rule = rules.answerComplete;
    return {
      rule: rule.id,
      kind: rule.kind,
      severity: rule.severity,
      section: rule.section,
      operation: this.operationId ?? '',
      exchange: this.record.id,
      seen: `HTTP ${this.record.status}: the upstream cut its answer after ${this.record.responseBytes} bytes ${promised}${why}`,
    };
  }

  /** The exchange ended (`aborted` names who cut it): the findings of a complete one, else none. */
  end(aborted: ExchangeRecord['aborted'] = null, error?: string): Verdict[] {
    try {
      return this.settle(aborted, error);
    } finally {
      // Whatever path the judging took (a cut, an early answer, a judge's bug), the budget gets its bytes back.
      this.requestJson?.drop();
      this.responseJson?.drop();
    }
  }

  private settle(aborted: ExchangeRecord['aborted'], error: string | undefined): Verdict[] {
    if (this.done) return [];
    this.done = true;
    const now = performance.now();
    const record = this.record;
    record.durationMs = round(now - this.started);
    const requestEnd = this.requestEndAt ?? this.started;
    if (this.firstByteAt !== undefined) record.ttfbMs = round(this.firstByteAt - requestEnd);
    record.aborted = aborted;
    if (error) record.upstreamError = error;
    // An answer that came before the request's end (an early 413) leaves the request unjudged.
    const early = this.requestEndAt === undefined;
    if (early && (this.requestJson || this.form))
      record.notes.push('answered before the request ended: its body was not checked');
    const requestJson = early
      ? ({ kind: 'none' } as const)
      : (this.requestJson?.finish() ?? { kind: 'none' });
    const form = early ? undefined : this.form?.result();
    if (form?.error) record.requestProblems.push(`the multipart form does not parse: ${form.error}`);
    if (form && !form.error) {
      const files = form.parts.filter((p) => p.name === upload.fileField);
      if (files.length !== 1)
        record.requestProblems.push(`${files.length} parts named "file"; §4.1 asks for one`);
    }
    if (requestJson.kind === 'json' && this.operationId && this.operationId !== 'uploadFile')
      for (const f of validateJsonBody(this.operationId, requestJson.value))
        record.requestProblems.push(`body ${f.pointer || '/'} ${f.message}`);
    if (requestJson.kind === 'not-json')
      record.requestProblems.push(`the body is not JSON: ${requestJson.error}`);
    if (this.requestJson?.starved) record.notes.push(`the request body: ${budgetNote}`);
    else if (requestJson.kind === 'too-large')
      record.notes.push(`the request body (${requestJson.bytes} bytes) is over the JSON cap: not validated`);
    // The answer's head is all a profile needs of a synthesis the client stopped reading (a status probe).
    const unjudged = !this.operationId || aborted === 'client';
    if (unjudged && (aborted === null || aborted === 'client') && record.status !== null) {
      const responseJson = this.responseJson?.finish() ?? { kind: 'none' };
      this.see(
        this.factsOf({ requestJson, form, responseJson, audio: undefined }, requestEnd, record.status),
      );
    }
    if (!this.operationId || aborted || record.status === null) {
      if (aborted && this.operationId) record.notes.push(`cut by the ${aborted}: the answer was not judged`);
      // A deployment that begins an answer and breaks it off hands the client broken audio or JSON:
      // that is the contract broken, not a judgement skipped (a client's own abort is not).
      if (aborted === 'upstream' && this.operationId && record.status !== null)
        return [this.cutFinding(error)];
      return [];
    }
    const responseJson = this.responseJson?.finish() ?? { kind: 'none' };
    if (this.responseJson?.starved) record.notes.push(`the JSON answer: ${budgetNote}`);
    else if (responseJson.kind === 'too-large')
      record.notes.push(
        `the JSON answer (${responseJson.bytes} bytes) is over the cap of ${this.options.jsonLimitBytes} bytes: not validated`,
      );
    const audio = this.audio?.finish();
    if (audio?.seconds !== undefined) record.audioSeconds = Math.round(audio.seconds * 1000) / 1000;
    const facts: ExchangeFacts = {
      ...this.factsOf({ requestJson, form, responseJson, audio }, requestEnd, record.status),
      operationId: this.operationId,
    };
    const verdicts = this.options.judge.judge(facts);
    this.judged = facts;
    this.see(facts);
    return verdicts;
  }

  /** Hands the exchange to the profile recorder; a recorder's bug costs the profile a point, not the proxy. */
  private see(facts: SeenFacts): void {
    try {
      this.options.recorder?.see(facts);
    } catch (e) {
      this.record.notes.push(`the profile recorder could not read this exchange: ${(e as Error).message}`);
    }
  }

  /** The facts of the exchange as the judge and the profile recorder read them. */
  private factsOf(
    bodies: Pick<ExchangeFacts, 'requestJson' | 'form' | 'responseJson' | 'audio'>,
    requestEnd: number,
    status: number,
  ): SeenFacts {
    const record = this.record;
    return {
      ...bodies,
      seq: record.id,
      operationId: this.operationId,
      method: record.method,
      path: record.path,
      query: this.query,
      requestHeaders: this.requestHeaders,
      status,
      responseHeaders: this.responseHeaders,
      timing: {
        waitMs: this.firstByteAt === undefined ? 0 : this.firstByteAt - requestEnd,
        spanMs: this.firstByteAt === undefined ? 0 : (this.lastByteAt ?? this.firstByteAt) - this.firstByteAt,
        chunks: record.chunks,
      },
    };
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
