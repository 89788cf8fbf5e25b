/**
 * One exchange passing through: the request and the answer stream byte for byte, with backpressure
 * both ways (a chunk is written on as it arrives; the reading side pauses while the writing side is
 * full). Each chunk is shown to the exchange's observer in the same turn, synchronously; the observer
 * never holds a chunk back. Whatever the upstream does, the client gets an answer or a cut, never a
 * wait: an answer Node cannot write on (a status 000 or 099, a control character in its reason), a
 * 101 Switching Protocols or a close with no answer is the proxy's 502.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { controlRequestCheck } from './control-guard.js';
import { type GatewayStatus, gatewayAnswer } from './gateway-answer.js';
import { endToEnd } from './hop-by-hop.js';
import { originForm } from './request-target.js';
import type { ExchangeInFlight, ProxySession } from './session.js';
import { Silence, UpstreamTimeout } from './silence.js';
import type { UpstreamLink } from './upstream-link.js';

export interface PassThroughContext {
  readonly upstream: UpstreamLink;
  /** How long the upstream may stay silent, ms (0: forever). */
  readonly timeoutMs: number;
  /** The address the proxy listens on: a control request must name it (control-guard.ts). */
  readonly host: string;
  readonly session: ProxySession;
}

/** Passes the request `req` on and its answer back to `res`. */
export function passThrough(ctx: PassThroughContext, req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? 'GET';
  const control = controlRequestCheck(ctx.host, req);
  if (control?.problem !== undefined) {
    // Never reaches the upstream, and is no exchange of the session: the proxy's own refusal.
    req.resume();
    gatewayAnswer(res, 403, control.problem);
    return;
  }
  // A page of the proxy's own origin, vouched for above: the mock (whose Host the proxy names) sees its own.
  if (control && req.headers.origin !== undefined) req.headers.origin = ctx.upstream.url.origin;
  const target = originForm(req.url ?? '/');
  const exchange = ctx.session.begin(method, target ?? req.url ?? '/', req);
  if (target === undefined) {
    req.resume();
    exchange.observer.record.notes.push(
      'the request target is neither a path nor an http(s) URL: answered 400 by the proxy',
    );
    gatewayAnswer(
      res,
      400,
      `the request target ${JSON.stringify(req.url)} is neither a path nor an http(s) URL`,
    );
    ctx.session.finish(exchange);
    return;
  }
  new Relay(ctx, exchange, req, res, ctx.upstream.request(method, target, req)).start();
}

/** The two directions of one exchange and what the proxy knows of each. */
class Relay {
  /** The upstream began an answer (a head, or a switch of protocols). */
  private answered = false;
  /** The answer's head was written to the client. */
  private headPassed = false;
  private requestDone = false;
  private readonly silence: Silence;

  constructor(
    private readonly ctx: PassThroughContext,
    private readonly exchange: ExchangeInFlight,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly upReq: ClientRequest,
  ) {
    this.silence = new Silence(upReq, ctx.timeoutMs);
  }

  start(): void {
    const { req, res, upReq } = this;
    upReq.setNoDelay(true);
    upReq.on('response', (upRes) => this.relayAnswer(upRes));
    // With this listener Node hands over the socket of a 101 instead of dropping it without a word.
    upReq.on('upgrade', (upRes, socket) => {
      socket.destroy();
      this.answered = true;
      this.gateway(
        502,
        `the upstream switched protocols (HTTP ${upRes.statusCode}), which the proxy does not pass on`,
      );
    });
    upReq.on('error', (error) => this.upstreamFailed(error));
    upReq.on('close', () => this.upstreamClosed());
    upReq.on('drain', () => req.resume());
    req.on('data', (chunk: Buffer) => this.requestChunk(chunk));
    req.on('end', () => {
      this.requestDone = true;
      this.exchange.observer.requestEnd();
      if (!upReq.destroyed) upReq.end();
      // The upstream's silence is timed from the request's end, never while the client still sends.
      if (!this.answered) this.silence.start();
    });
    req.on('error', () => upReq.destroy());
    // The client went away before the answer ended: the upstream exchange is cut too.
    res.on('close', () => {
      if (res.writableFinished) return;
      upReq.destroy();
      this.finish('client');
    });
  }

  private finish(aborted: Parameters<ProxySession['finish']>[1] = null, error?: string): void {
    this.ctx.session.finish(this.exchange, aborted, error);
  }

  private requestChunk(chunk: Buffer): void {
    this.exchange.observer.requestChunk(chunk);
    this.exchange.tap?.requestChunk(chunk);
    if (this.upReq.destroyed) return;
    if (!this.upReq.write(chunk)) this.req.pause();
  }

  /**
   * The proxy answers in the upstream's place (`message` to the client, `error` on the exchange) and
   * counts an upstream error; once the upstream's head was written, the client's answer is cut instead.
   */
  private gateway(status: GatewayStatus, message: string, error = message): void {
    this.silence.stop();
    this.req.resume(); // read and drop the rest of the request
    if (!this.res.headersSent) gatewayAnswer(this.res, status, message);
    else this.res.destroy();
    this.finish('upstream-unreachable', error);
    this.upReq.destroy();
  }

  private upstreamFailed(error: Error): void {
    this.silence.stop();
    if (!this.answered) {
      const timedOut = error instanceof UpstreamTimeout;
      const why = timedOut ? error.message : ((error as NodeJS.ErrnoException).code ?? error.message);
      this.gateway(
        timedOut ? 504 : 502,
        timedOut ? `the upstream did not answer in time (${why})` : `the upstream cannot be reached (${why})`,
        error.message,
      );
    } else if (!this.requestDone) this.req.resume(); // the upstream answered and closed early: drop the rest
  }

  /** A close with no answer passed on (a 101 Node dropped, a reply it never surfaced) is a 502, never a hang. */
  private upstreamClosed(): void {
    this.silence.stop();
    if (!this.headPassed && !this.exchange.observer.ended)
      this.gateway(502, 'the upstream closed the connection without an answer the proxy can pass on');
  }

  private relayAnswer(upRes: IncomingMessage): void {
    this.answered = true;
    this.silence.start();
    const { res, exchange } = this;
    const status = upRes.statusCode ?? 0;
    const seen = `HTTP ${String(status).padStart(3, '0')} ${JSON.stringify(upRes.statusMessage ?? '')}`;
    try {
      // A 1xx here is a final answer that is none (a 101 without Upgrade): no client could read on.
      if (status < 200) throw new Error('an informational status cannot end an exchange');
      res.writeHead(status, upRes.statusMessage, endToEnd(upRes.rawHeaders));
    } catch (error) {
      // Or a status line Node refuses to write (000, 099, a reason with a control character).
      upRes.destroy();
      this.gateway(
        502,
        `the upstream's answer cannot be passed on (${seen})`,
        `${seen}: ${(error as Error).message}`,
      );
      return;
    }
    this.headPassed = true;
    exchange.observer.responseHead(status, upRes.headers);
    exchange.tap?.responseHead(status, upRes.statusMessage ?? '', upRes.rawHeaders, upRes.headers);
    // The head goes out with the first body chunk when that is in the same turn (one write for a
    // small answer), else on its own at once: a stream whose first chunk waits still shows its head.
    setImmediate(() => {
      if (!res.headersSent && !res.destroyed) res.flushHeaders();
    });
    this.relayBody(upRes);
  }

  private relayBody(upRes: IncomingMessage): void {
    const { res, exchange, silence } = this;
    upRes.on('data', (chunk: Buffer) => {
      silence.start();
      exchange.observer.responseChunk(chunk);
      exchange.tap?.responseChunk(chunk);
      // A client that reads slowly holds the upstream back: that wait is not the upstream's silence.
      if (!res.write(chunk)) {
        upRes.pause();
        silence.stop();
      }
    });
    res.on('drain', () => {
      upRes.resume();
      if (!upRes.complete) silence.start();
    });
    upRes.on('end', () => {
      silence.stop();
      res.end();
      this.finish();
    });
    // The upstream cut its answer (a reset, a close before the last byte): the client's is cut too.
    upRes.on('error', (error) => {
      this.finish('upstream', silence.timedOut ?? error.message);
      res.destroy();
    });
    upRes.on('close', () => {
      if (upRes.complete) return;
      this.finish('upstream', silence.timedOut ?? 'the upstream cut its answer');
      res.destroy();
    });
  }
}
