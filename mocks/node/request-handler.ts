import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Answer, BytesAnswer, StreamAnswer } from '../core/answer/answer.js';
import { type Failure, fail, isFailure, render } from '../core/answer/envelope.js';
import { voiceAudioPath } from '../core/reference/signed-url.js';
import { BodyStalled } from '../core/request/request-body.js';
import type { MockService } from '../core/service.js';
import { memoKeyMaxChars } from '../core/state/caches.js';
import { KeptMap } from '../core/state/kept-map.js';
import type { StreamTiming } from '../core/state/request-log.js';
import type { ControlGuard } from './control-guard.js';
import { answerPreflight, corsHeaderList, isPreflight } from './cors.js';
import { dashboardFiles, isDashboardRequest, serveDashboard } from './dashboard.js';
import { firstHost, RecentUrls, stalledRequests, toRequest } from './read-request.js';
import { type Routed, type RouteMemos, routedTarget } from './routed-target.js';
import { writeBytesAnswer, writeStreamAnswer } from './write-answer.js';

/** What one server's request handler is made of. */
export interface HandlerParts {
  readonly service: MockService;
  readonly guard: ControlGuard;
  /** Whether browser apps of any origin may call the mock (MockServerOptions.cors). */
  readonly cors: boolean;
  /** The origin of a request without a Host header: the server's own address. */
  readonly fallbackOrigin: string;
  readonly bodyTimeoutMs: number;
}

/** The head of answers that carry no CORS grant (the control API). */
const noExtra: readonly string[] = [];

/** One request's way through the server: what it needs of the server, made once per server. */
interface Server extends HandlerParts {
  /** Every answer's head starts with these (the answer's own headers of the same name win). */
  readonly extra: readonly string[];
  readonly memos: RouteMemos;
  readonly dashboard: ReturnType<typeof dashboardFiles>;
}

/**
 * The `node:http` request listener of one mock server: route (one URL for the guard and the core),
 * the control guard, the dashboard, CORS preflights, then the core's answer, written.
 */
export function requestHandler(parts: HandlerParts): (req: IncomingMessage, res: ServerResponse) => void {
  const server: Server = {
    ...parts,
    extra: parts.cors ? corsHeaderList(parts.service.config) : [],
    // This server's memos of request heads: Host → origin, origin + path → URL. Bounded by bytes.
    memos: {
      origins: new KeptMap<string, string | null>(64, memoKeyMaxChars),
      urls: new RecentUrls(),
      targets: parts.service.state.caches.targets,
    },
    dashboard: dashboardFiles(),
  };
  return (req, res) => handle(server, req, res);
}

function handle(server: Server, req: IncomingMessage, res: ServerResponse): void {
  const startedAt = performance.now();
  // The first Host, as Node keeps it; read from the raw list (building req.headers costs more).
  const routed = routedTarget(req.url ?? '/', firstHost(req.rawHeaders), server.fallbackOrigin, server.memos);
  if (isFailure(routed)) {
    refuse(req, res, routed, server.extra);
    return;
  }
  const path = routed.target.pathname;
  // Only paths that may be the control API (or /__mock, the dashboard without its slash) pay for the check.
  const mayBeControl = path.startsWith('/__mock');
  if (mayBeControl && isDashboardRequest(req, path)) {
    const refused = server.guard.check(req, path, false);
    if (refused) refuse(req, res, refused);
    else {
      serveDashboard(req, res, path, server.dashboard);
      finish(req, res);
    }
    return;
  }
  const refusal = mayBeControl ? server.guard.check(req, path) : undefined;
  if (refusal) {
    refuse(req, res, refusal);
    return;
  }
  const open = !mayBeControl || path.startsWith(voiceAudioPath);
  if (server.cors && isPreflight(req)) {
    // The control API grants no browser of another origin anything: its preflight is refused.
    if (open) answerPreflight(req, res);
    else refuse(req, res, fail('controlRefused'));
    return;
  }
  answerWith(server, req, res, routed, open ? server.extra : noExtra, startedAt);
}

/** A request refused before the core: its envelope (with no CORS grant unless `head` gives one). */
function refuse(req: IncomingMessage, res: ServerResponse, failure: Failure, head = noExtra): void {
  writeBytesAnswer(render(failure), res, head);
  finish(req, res);
}

/** After an answer: a stalled body closes its connection, any other unread body is thrown away. */
function finish(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  // A body that stalled will not finish: the connection closes once the 408 is out.
  if (stalledRequests.has(req)) res.once('finish', () => req.socket.destroy());
  // Whatever else the answer left unread is thrown away, so a keep-alive connection stays usable.
  else req.resume();
}

/** Hands the request to the core and writes its answer. */
function answerWith(
  server: Server,
  req: IncomingMessage,
  res: ServerResponse,
  routed: Routed,
  head: readonly string[],
  startedAt: number,
): void {
  const { service } = server;
  let answered: Promise<Answer>;
  try {
    // A GET's request is made at once; one with a body once its small body is read.
    const request = toRequest(req, res, routed.href, server.bodyTimeoutMs);
    answered =
      request instanceof Promise
        ? request.then(
            (r) => service.answer(r),
            // A small body read whole before the core sees it: its stall is answered here.
            (error: unknown) => {
              if (error instanceof BodyStalled) return render(fail('bodyStalled', error.message));
              throw error;
            },
          )
        : service.answer(request);
  } catch {
    res.destroy();
    return;
  }
  // One reaction for both outcomes (a `.catch` after the `.then` made a second promise per request);
  // whatever the writing throws or rejects with drops the connection, as a rejected answer does.
  const drop = () => res.destroy();
  answered.then((answer) => {
    try {
      write(service, answer, req, res, head, startedAt)?.catch(drop);
    } catch {
      drop();
    }
  }, drop);
}

/** Writes an answer; a promise only while a streamed body is being written. */
function write(
  service: MockService,
  answer: Answer,
  req: IncomingMessage,
  res: ServerResponse,
  head: readonly string[],
  startedAt: number,
): Promise<void> | undefined {
  // Bytes the core made in memory go out in one write, as a bare node:http server sends them.
  if (answer instanceof BytesAnswer) {
    writeBytesAnswer(answer, res, head);
    finish(req, res);
    return undefined;
  }
  if (answer instanceof StreamAnswer) {
    // The request log learns how the body went out (time to first byte, chunks, bytes) when it ends.
    const sent = {
      startedAt,
      ended: (timing: StreamTiming) => service.state.requests.measured(answer, timing),
    };
    return writeStreamAnswer(answer, res, head, sent).then(() => finish(req, res));
  }
  // Dropped: no answer at all, as a reset connection (Prefer: fault=reset).
  res.socket?.destroy();
  return undefined;
}
