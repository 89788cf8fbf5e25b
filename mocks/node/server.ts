import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, BytesAnswer, StreamAnswer } from '../core/answer/answer.js';
import { type Failure, fail, render } from '../core/answer/envelope.js';
import type { PopulateOptions } from '../core/control/populate.js';
import { offsetClock } from '../core/platform/clock.js';
import { randomSecret } from '../core/platform/signer.js';
import { voiceAudioPath } from '../core/reference/signed-url.js';
import { BodyStalled } from '../core/request/request-body.js';
import { createMockService, type MockService, type MockServiceOptions } from '../core/service.js';
import { KeptMap } from '../core/state/kept-map.js';
import type { StreamTiming } from '../core/state/request-log.js';
import { controlGuard, isLoopbackHost } from './control-guard.js';
import { answerPreflight, corsHeaderList, isPreflight } from './cors.js';
import { dashboardFiles, isDashboardRequest, serveDashboard } from './dashboard.js';
import { tempDirStorage } from './file-storage.js';
import { drained, firstHost, RecentUrls, stalledRequests, toRequest } from './read-request.js';
import { resolveHost } from './resolve-host.js';
import { StateDirError } from './state-dir-error.js';
import { answerClientError, writeBytesAnswer, writeStreamAnswer } from './write-answer.js';

/**
 * The origin of a Host header a client sent, made once per Host (a handful) instead of per request;
 * null for a Host that is not host[:port] ("evil.test/x?" would otherwise become part of the path).
 */
function originOf(host: string, origins: KeptMap<string, string | null>): string | null {
  let origin = origins.get(host);
  if (origin === undefined) {
    origin = null;
    try {
      const url = new URL(`http://${host}`);
      const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
      if (bare && !host.includes('/') && !host.includes('@')) origin = url.origin;
    } catch {
      // not a host: refused below
    }
    origins.set(host, origin);
  }
  return origin;
}

/** The head of answers that carry no CORS grant (the control API). */
const noExtra: readonly string[] = [];

/**
 * The path of a request target, origin-form or absolute-form, without its query, as the core will route
 * it: URL resolves `..`, `%2e%2e` and `\`, so `/v1/../__mock/reset` must be judged as `/__mock/reset`.
 */
function pathOf(target: string): string {
  try {
    return new URL(target, 'http://mock.invalid').pathname;
  } catch {
    return target;
  }
}

/** How long a request body may stall before the server cuts it: see MockServerOptions.bodyTimeoutMs. */
export const defaultBodyTimeoutMs = 30_000;

/** Options of the Node mock server; `service` wins over `config` and `seed`. */
export interface MockServerOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  config?: MockServiceOptions['config'];
  seed?: number;
  /**
   * How long a request body may send nothing before it is cut with 408 (its upload quota slot given
   * back). Default 30,000 ms.
   */
  bodyTimeoutMs?: number;
  /**
   * Keep the whole state in this directory (created when missing) and load it at start: uploads,
   * voices, quotas, the ledger and the clock survive restarts and kill -9 (docs/persistence.md).
   * Default: in memory, gone when the server stops. A directory that cannot be read rejects with a
   * StateDirError naming the file.
   */
  stateDir?: string;
  /** Fake custom voices made at start when the mock holds none yet (POST /__mock/populate does the same). */
  populate?: PopulateOptions;
  /** A service of your own (then its storage and clock are yours too). */
  service?: MockService;
  /** Extra service options when no `service` is given (validateResponses, logger, ...). */
  serviceOptions?: Omit<MockServiceOptions, 'config' | 'seed'>;
  /**
   * Let browser apps of any origin call the mock (default true): OPTIONS preflights are answered with
   * 204, and every answer carries Access-Control-Allow-Origin: * and Access-Control-Expose-Headers.
   * The control API (/__mock/) never does: it answers only the mock's own origin.
   */
  cors?: boolean;
  /**
   * The token control-API requests must carry in X-Mock-Control-Token. Default: none on a loopback
   * host; a random one on any other host (`MockServer.controlToken` tells it).
   */
  controlToken?: string;
  /**
   * Fetch ref_audio URLs on loopback, private and link-local addresses (local fixtures). Default
   * false (`config.allowPrivateUrls`): they are refused, and host names are checked after DNS.
   */
  allowPrivateUrls?: boolean;
}

/** The service of a server given none: on a state dir, or in memory with a temporary directory for bytes. */
async function ownService(options: MockServerOptions): Promise<MockService> {
  const serviceOptions: MockServiceOptions = {
    clock: offsetClock(() => Date.now()),
    resolveHost,
    ...options.serviceOptions,
    ...(options.allowPrivateUrls !== undefined ? { allowPrivateUrls: options.allowPrivateUrls } : {}),
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  if (options.stateDir === undefined) {
    const service = createMockService({
      ...serviceOptions,
      storage: options.serviceOptions?.storage ?? (await tempDirStorage()),
    });
    return populated(service, options.populate);
  }
  const { openStateDir } = await import('./state-dir.js');
  const dir = await openStateDir(options.stateDir);
  let service: MockService;
  try {
    service = createMockService({ ...serviceOptions, storage: dir.storage, persistence: dir });
  } catch (error) {
    await dir.store.close();
    throw new StateDirError(
      `${dir.directory}/state.db holds a state this mock cannot load (${(error as Error).message}); move the directory aside (or restore it from a backup) and start again`,
    );
  }
  return populated(service, options.populate);
}

/** Fills a mock that holds no custom voice yet (a restart on a populated state dir adds none). */
async function populated(service: MockService, populate: PopulateOptions | undefined): Promise<MockService> {
  if (populate && service.state.voices.lastSequence === 0) {
    try {
      await service.populate(populate);
    } catch (error) {
      await service.close();
      throw error;
    }
  }
  return service;
}

/** A running mock server. */
export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly service: MockService;
  /** The token the control API asks for (X-Mock-Control-Token); undefined when it asks for none. */
  readonly controlToken: string | undefined;
  /** Stops listening, drops open connections and removes the temporary storage. */
  close(): Promise<void>;
}

/**
 * Starts the stateful mock as a real HTTP server. Uploads are stored in a temporary directory, and
 * the clock is the system clock (moved by POST /__mock/clock/advance).
 *
 * @example
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': 'mock-key' } });
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 4010, host = '127.0.0.1', bodyTimeoutMs = defaultBodyTimeoutMs } = options;
  const service = options.service ?? (await ownService(options));
  const cors = options.cors ?? true;
  // Made once: every answer's head starts with these (the answer's own headers of the same name win).
  const extra = cors ? corsHeaderList(service.config) : [];
  const fallbackOrigin = `http://${host}:${port}`;
  // This server's memos of request heads: Host → origin, origin + path → URL. Bounded.
  const origins = new KeptMap<string, string | null>(64);
  const urls = new RecentUrls();
  const finish = (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return;
    // A body that stalled will not finish: the connection closes once the 408 is out.
    if (stalledRequests.has(req)) res.once('finish', () => req.socket.destroy());
    // Whatever else the answer left unread is thrown away, so a keep-alive connection stays usable.
    else req.on('data', (chunk: Buffer) => drained(chunk.byteLength)).resume();
  };
  const dashboard = dashboardFiles();
  const guard = controlGuard(
    host,
    options.controlToken ?? (isLoopbackHost(host) ? undefined : randomSecret().slice(0, 32)),
  );
  /** A control-API request the guard refuses: its envelope, with no CORS grant. */
  const refuse = (req: IncomingMessage, res: ServerResponse, failure: Failure) => {
    writeBytesAnswer(render(failure), res);
    finish(req, res);
  };
  // noDelay: a streamed chunk leaves at once instead of waiting on Nagle's algorithm for an ACK.
  const server = createServer({ noDelay: true }, (req, res) => {
    const startedAt = performance.now();
    const path = req.url ?? '/';
    // Only paths that may be the control API (or /__mock, the dashboard without its slash) pay for the check.
    // `__mock` without its slash: a target such as `/v1/..\__mock/reset` resolves to the control API too.
    const controlPath = path.includes('__mock') ? pathOf(path) : undefined;
    if (controlPath !== undefined && isDashboardRequest(req, controlPath)) {
      const refused = guard.check(req, controlPath, false);
      if (refused) return refuse(req, res, refused);
      serveDashboard(req, res, controlPath, dashboard);
      return finish(req, res);
    }
    const refusal = controlPath === undefined ? undefined : guard.check(req, controlPath);
    if (refusal) return refuse(req, res, refusal);
    const open = controlPath === undefined || controlPath.startsWith(voiceAudioPath);
    if (cors && isPreflight(req)) {
      // The control API grants no browser of another origin anything: its preflight is refused.
      if (open) answerPreflight(req, res);
      else refuse(req, res, fail('controlRefused'));
      return;
    }
    // The first Host, as Node keeps it; read from the raw list (building req.headers costs more).
    const hostHeader = firstHost(req.rawHeaders);
    const origin = hostHeader === undefined ? fallbackOrigin : originOf(hostHeader, origins);
    if (origin === null) {
      const refused = render(
        fail('invalidRequest', `Host header ${JSON.stringify(hostHeader)} is not host[:port]`),
      );
      writeBytesAnswer(refused, res, extra);
      return finish(req, res);
    }
    let href: string;
    try {
      href = urls.of(req, origin);
    } catch {
      // Node's parser lets through targets URL cannot read (`//[`): an answer, not a dropped connection.
      writeBytesAnswer(
        render(fail('invalidRequest', `request target ${JSON.stringify(path)} is not a URL`)),
        res,
        extra,
      );
      return finish(req, res);
    }
    let answered: Answer | Promise<Answer>;
    try {
      // A GET's request is made at once; one with a body once its small body is read.
      const request = toRequest(req, res, href, bodyTimeoutMs);
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
    // An answer the core made at once (a list from memory) is written in this same turn, with no
    // promise: under load each promise hop of a list answer costs as much as routing it.
    const head = open ? extra : noExtra;
    if (answered instanceof Promise)
      answered.then((answer) => write(answer, req, res, head, startedAt)).catch(() => res.destroy());
    else {
      try {
        write(answered, req, res, head, startedAt)?.catch(() => res.destroy());
      } catch {
        res.destroy();
      }
    }
  });
  /** Writes an answer; a promise only while a streamed body is being written. */
  const write = (
    answer: Answer,
    req: IncomingMessage,
    res: ServerResponse,
    head: readonly string[],
    startedAt: number,
  ): Promise<void> | undefined => {
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
  };
  server.on('clientError', answerClientError);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    // A port in use (EADDRINUSE) or not ours to take: leave no storage directory behind.
    if (!options.service) await service.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    service,
    controlToken: guard.token,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!options.service) await service.close();
    },
  };
}
