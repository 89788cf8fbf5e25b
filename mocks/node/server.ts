import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { isLoopbackHost } from '../../common/control-access.js';
import { ConfigError } from '../config/parse-config.js';
import type { PopulateOptions } from '../core/control/populate.js';
import { offsetClock } from '../core/platform/clock.js';
import { randomSecret } from '../core/platform/signer.js';
import { createMockService, type MockService, type MockServiceOptions } from '../core/service.js';
import { controlGuard, controlTokenProblem } from './control-guard.js';
import { tempDirStorage } from './file-storage.js';
import { createServer } from './node-http.js';
import { probePort } from './port-probe.js';
import { requestHandler } from './request-handler.js';
import { resolveHost } from './resolve-host.js';
import { StateDirError } from './state-dir-error.js';
import { answerClientError } from './write-answer.js';

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
  /**
   * With `stateDir`: start without the entries whose audio file is missing or damaged (listed in
   * `startup.dropped`; the damaged files are moved into `<stateDir>/damaged/`). Default false: such a
   * dir is refused with a StateDirError naming the file and the voices that use it.
   */
  repair?: boolean;
  /**
   * Keep the whole state in this PostgreSQL database (`postgres://user:password@host:5432/db`): several
   * mocks given the same URL are replicas of one service (docs/replicas.md). Not with `stateDir`.
   * A database that cannot be used rejects with a StateDirError naming it.
   */
  stateUrl?: string;
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
   * The token control-API requests must carry in X-Mock-Control-Token: at least 16 visible ASCII
   * characters (a shorter or empty one is a ConfigError). Default: none on a loopback host; a random
   * one on any other host (`MockServer.controlToken` tells it).
   */
  controlToken?: string;
  /**
   * Fetch ref_audio URLs on loopback, private and link-local addresses (local fixtures). Default
   * false (`config.allowPrivateUrls`): they are refused, and host names are checked after DNS.
   */
  allowPrivateUrls?: boolean;
}

/** What a start found and did, for its start line (the CLI prints it). */
export interface MockServerStartup {
  /** With a state dir: what it held at start (after a repair dropped the damaged entries). */
  readonly restored?: { readonly voices: number; readonly uploads: number };
  /** The voices, upload keys and files a repair dropped (none without `repair`). */
  readonly dropped: readonly {
    readonly file: string;
    readonly problem: string;
    readonly voiceIds: readonly string[];
    readonly uploadKeys: readonly string[];
  }[];
  /** With `populate`: how many voices it made, or 0 when the mock held voices already (then it adds none). */
  readonly populated?: number;
}

/** The service of a server given none: on a state dir, or in memory with a temporary directory for bytes. */
async function ownService(
  options: MockServerOptions,
): Promise<{ service: MockService; startup: MockServerStartup; nameReplica?: (name: string) => void }> {
  const serviceOptions: MockServiceOptions = {
    clock: offsetClock(() => Date.now()),
    resolveHost,
    ...options.serviceOptions,
    ...(options.allowPrivateUrls !== undefined ? { allowPrivateUrls: options.allowPrivateUrls } : {}),
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  if (options.stateUrl !== undefined) return sharedService(options, serviceOptions);
  if (options.stateDir === undefined) {
    const service = createMockService({
      ...serviceOptions,
      storage: options.serviceOptions?.storage ?? (await tempDirStorage()),
    });
    return populated(service, options.populate, { dropped: [] });
  }
  const { openStateDir } = await import('./state-dir.js');
  const dir = await openStateDir(options.stateDir, { repair: options.repair === true });
  let service: MockService;
  try {
    service = createMockService({ ...serviceOptions, storage: dir.storage, persistence: dir });
  } catch (error) {
    await dir.store.close();
    throw new StateDirError(
      `${dir.directory}/state.db holds a state this mock cannot load (${(error as Error).message}); move the directory aside (or restore it from a backup) and start again`,
    );
  }
  const restored = { voices: service.state.voices.count, uploads: service.state.uploads.all().length };
  return populated(service, options.populate, { restored, dropped: dir.dropped });
}

/** The service of a replica: its state in PostgreSQL (mocks/node/postgres/, loaded only here). */
async function sharedService(
  options: MockServerOptions,
  serviceOptions: MockServiceOptions,
): Promise<{ service: MockService; startup: MockServerStartup; nameReplica?: (name: string) => void }> {
  if (options.stateDir !== undefined)
    throw new StateDirError('give the state a directory (stateDir) or a database (stateUrl), not both');
  const { openPostgresState } = await import('./postgres/postgres-state.js');
  const state = await openPostgresState(options.stateUrl as string);
  let service: MockService;
  try {
    service = createMockService({ ...serviceOptions, storage: state.storage, persistence: state });
  } catch (error) {
    await state.store.close();
    throw new StateDirError(`the database holds a state this mock cannot load (${(error as Error).message})`);
  }
  const restored = { voices: service.state.voices.count, uploads: service.state.uploads.all().length };
  const made = await populated(service, options.populate, { restored, dropped: [] });
  return { ...made, nameReplica: state.nameReplica };
}

/** Fills a mock that holds no custom voice yet (a restart on a populated state dir adds none). */
async function populated(
  service: MockService,
  populate: PopulateOptions | undefined,
  startup: MockServerStartup,
): Promise<{ service: MockService; startup: MockServerStartup }> {
  if (!populate) return { service, startup };
  if (service.state.voices.lastSequence !== 0) return { service, startup: { ...startup, populated: 0 } };
  try {
    const made = await service.populate(populate);
    return { service, startup: { ...startup, populated: made.created } };
  } catch (error) {
    await service.close();
    throw error;
  }
}

/** A running mock server. */
export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  readonly url: string;
  readonly service: MockService;
  /** The token the control API asks for (X-Mock-Control-Token); undefined when it asks for none. */
  readonly controlToken: string | undefined;
  /** What the start restored, repaired and populated (for a start line). */
  readonly startup: MockServerStartup;
  /** Stops listening, drops open connections and removes the temporary storage. */
  close(): Promise<void>;
}

/** The control token a server asks for: the one given, none on loopback, else a random one. */
const tokenOf = (options: MockServerOptions, host: string): string | undefined =>
  options.controlToken ?? (isLoopbackHost(host) ? undefined : randomSecret().slice(0, 32));

/** Listens; a port in use (EADDRINUSE) or not ours to take rejects, leaving no storage directory behind. */
async function listen(server: Server, port: number, host: string, own: MockService | undefined) {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    await own?.close();
    throw error;
  }
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
  const tokenProblem =
    options.controlToken === undefined ? undefined : controlTokenProblem(String(options.controlToken));
  if (tokenProblem !== undefined) throw new ConfigError([`controlToken ${tokenProblem}`]);
  // A busy port is found before a state dir is created (it would be left behind by a failed start).
  if ((options.stateDir ?? options.stateUrl) !== undefined && !options.service) await probePort(port, host);
  const made = options.service ? undefined : await ownService(options);
  const service = options.service ?? (made as { service: MockService }).service;
  const own = made?.service;
  const startup: MockServerStartup = made?.startup ?? { dropped: [] };
  const guard = controlGuard(host, tokenOf(options, host));
  const handler = requestHandler({
    service,
    guard,
    cors: options.cors ?? true,
    fallbackOrigin: `http://${host}:${port}`,
    bodyTimeoutMs,
  });
  // noDelay: a streamed chunk leaves at once instead of waiting on Nagle's algorithm for an ACK.
  const server = createServer({ noDelay: true }, handler);
  server.on('clientError', answerClientError);
  await listen(server, port, host, own);
  // The audio engine warms once the first request has been answered: that first answer (a readiness
  // probe, most often) never waits for the warm-up's first compiles, and a mock nobody calls does no
  // work. The warm-up then takes the service's turns: none while it answers real requests.
  server.once('request', (_req, res: ServerResponse) =>
    res.once('close', () => setImmediate(() => service.warm().catch(() => {}))),
  );
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A replica of a shared state is named in the journal by where it listens.
  made?.nameReplica?.(`${hostname()}:${address.port}`);
  return {
    url: `http://${shownHost}:${address.port}`,
    service,
    controlToken: guard.token,
    startup,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await own?.close();
    },
  };
}
