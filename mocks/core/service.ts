import { errors, limits } from '../../openapi/contract.js';
import { parseProfile } from '../../profile/parse.js';
import type { Profile } from '../../profile/types.js';
import { parseConfig } from '../config/parse-config.js';
import type { MockConfig, MockConfigInput } from '../config/types.js';
import { type Answer, asResponse, StreamAnswer } from './answer/answer.js';
import { failureAnswer } from './answer/envelope.js';
import { FairTurns } from './answer/fair-turns.js';
import { calibratedConfig, calibrationOf } from './calibration.js';
import type { AudioEngine, CoreRequest, Logger, ServiceDeps } from './context.js';
import { type Controls, handleControl } from './control/control-api.js';
import { type PopulateOptions, type PopulateResult, populateVoices } from './control/populate.js';
import { checkResponse, type Handled, logEntry, runPipeline } from './pipeline.js';
import { type Clock, manualClock } from './platform/clock.js';
import { lazyAudioEngine } from './platform/lazy-audio.js';
import { type PinnedStorage, pinnedStorage, snapshotObjectIds } from './platform/pinned-storage.js';
import { createSigner, randomSecret, seedSecret } from './platform/signer.js';
import { memoryStorage, type Storage } from './platform/storage.js';
import { quietTurns, warmUp } from './platform/warm-up.js';
import { type Target, targetOf } from './request/target.js';
import { keepExchange } from './state/exchange.js';
import { localDecisions } from './state/local-decisions.js';
import { type MockSnapshot, MockState } from './state/mock-state.js';
import { clockChange, persistedState, snapshotChange, urlSecretChange } from './state/persisted-rows.js';
import {
  memoryStore,
  type SharedStore,
  type StateChange,
  type StateRow,
  type StateStore,
} from './state/state-store.js';
import { callersOf } from './state/tenancy.js';

/** Everything a mock service can be given; every field has a default. */
export interface MockServiceOptions {
  /** Any subset of the configuration (checked; a bad field throws a ConfigError naming it). */
  config?: MockConfigInput | MockConfig;
  /**
   * Seed of object keys, custom voice profiles and voice_url signatures. Default: 42 for ids and
   * profiles, and a random secret for voice_url signatures. Give one for reproducible voice_urls
   * across runs; anyone who knows it can then forge them.
   */
  seed?: number;
  /** Default: a manual clock at 2026-01-01T00:00:00Z that moves only when advanced. */
  clock?: Clock;
  /** Default: in memory. The Node server injects a temporary-directory storage. */
  storage?: Storage;
  /** Fetches ref_audio URLs. Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Lets ref_audio URLs reach loopback, private and link-local addresses (local fixtures); overrides
   * `config.allowPrivateUrls`. Default false: such URLs are refused with 400/20012 without connecting.
   */
  allowPrivateUrls?: boolean;
  /**
   * Resolves a ref_audio URL's host name to its addresses, so a name that leads to a non-public one
   * is refused too. The Node server passes a DNS lookup (`resolveHost` of `voice-kit/node`); without
   * one, only IP literals and localhost names are checked.
   */
  resolveHost?: (hostname: string) => Promise<readonly string[]>;
  /**
   * A calibration profile (docs/calibration.md): the mock answers as it says on every point it covers,
   * and with its own choices elsewhere; it wins over `config` for pcmHeaders and maxTextLength. A
   * Profile or its raw JSON value, checked here: a bad one throws a ProfileError naming the field.
   */
  profile?: Profile | unknown;
  /** Default: the audio engine. */
  audio?: AudioEngine;
  /** Check every JSON answer against the OpenAPI description; a violation becomes a 500. Tests turn it on. */
  validateResponses?: boolean;
  /**
   * Waits for pacing and slow-chunk faults; `sleep(0)` is the yield to the event loop between rendered
   * chunks. Default: setTimeout, and setImmediate (where there is one) for 0.
   */
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
  /**
   * Where the state is kept beyond memory, and the rows it held at start (loaded before the first
   * answer). Default: nothing kept. The Node server's `stateDir` passes its SQLite store here.
   */
  persistence?: { store: StateStore; rows: readonly StateRow[] };
  /**
   * Fake custom voices made at start, for UI work (as POST /__mock/populate): `voices` of them, from
   * `seed` (default 1), unless the mock already holds voices (a persisted state). Requests wait until
   * they exist; `service.ready` tells when.
   */
  populate?: PopulateOptions;
}

/** A stateful mock of the whole service behind one Fetch handler. */
export interface MockService {
  /**
   * Answers one request, as the service would: a `fetch`, so it can be handed to any client that takes
   * one (`createClient({ fetch: service.fetch })`). It takes what `fetch` takes: an absolute URL (a
   * string or a `URL`) with its `init`, or a Fetch `Request` (with an `init` that changes it); and also
   * anything with a Request's `method`, `url`, `headers.get`, `body` and `signal` (`CoreRequest`, no
   * `init`), which adapters use to save work.
   */
  fetch(input: string | URL | Request | CoreRequest, init?: RequestInit): Promise<Response>;
  /**
   * The same answer before it becomes a Fetch Response: bytes in memory come back as a `BytesAnswer`,
   * which an adapter can write at once (the Node server does); audio as a `StreamAnswer`; faults as a
   * Response. An answer that needs no waiting (a list from memory, most refusals) comes back as is,
   * not in a promise: `await` it either way.
   */
  answer(request: CoreRequest): Promise<Answer>;
  readonly config: MockConfig;
  /** The calibration profile the service answers by, as checked; undefined without one. */
  readonly profile?: Profile;
  readonly clock: Clock;
  readonly state: MockState;
  /** Responses that broke the OpenAPI description (with validateResponses on); empty when all is well. */
  readonly responseViolations: readonly string[];
  /** Forgets all state (the clock goes back to its start) and removes stored bytes, except those a snapshot taken of this service refers to. */
  reset(): Promise<void>;
  /**
   * The state as JSON-serializable data; stored bytes are referenced, not copied, and kept (pinned)
   * until close(), so that restore() brings them back even after a reset or a deletion.
   */
  snapshot(): MockSnapshot;
  /**
   * Puts a snapshot of this service back, with its stored bytes (those of another service are not
   * here). With a durable store it returns a promise that resolves once the restore is stored.
   */
  restore(snapshot: MockSnapshot): void | Promise<void>;
  /** Adds fake custom voices with real reference recordings (POST /__mock/populate does the same). */
  populate(options: PopulateOptions): Promise<PopulateResult>;
  /** Resolves once the service is ready to answer (its `populate` option done); rejects if that failed. */
  readonly ready: Promise<void>;
  /**
   * Sends stream requests nobody hears (warm-up.ts: sixteen texts) through a throwaway service with
   * the same config and audio engine, so the first real stream is nearly as quick as the next (the
   * Node server calls it once it has answered its first request). Each piece of it waits for a turn
   * of the event loop, and for none of this service's answers to be under way (quietTurns): real
   * requests go first. Changes
   * no state and no answer; only the engine's memos (`state.caches.engine`) fill. Rejects if the
   * service is closed before the warm-up ends.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

// A zero wait is a yield between synthesized chunks, thousands per long text: setTimeout(0) would
// add ~1 ms each (4 ms in browsers once nested), setImmediate (Node, Bun, Deno) lets pending I/O in and
// goes on at once. Browsers have none: a MessageChannel message is their macrotask without the clamp.
const { setImmediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };
const immediate: (callback: () => void) => void =
  setImmediate ??
  (() => {
    if (typeof MessageChannel !== 'function') return (callback) => void setTimeout(callback, 0);
    const channel = new MessageChannel();
    const queue: (() => void)[] = [];
    channel.port1.onmessage = () => queue.shift()?.();
    return (callback) => {
      queue.push(callback);
      channel.port2.postMessage(null);
    };
  })();
const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0) immediate(resolve);
    else setTimeout(resolve, ms);
  });

const done = Promise.resolve();

const consoleLogger: Logger = {
  error: (message, detail) => console.error(`[voice-kit mock] ${message}`, detail ?? ''),
};

/** How far the clock was advanced since the last reset: kept by a durable store, changed by every step. */
interface ClockShift {
  ms: number;
}

/**
 * The configuration a service runs with: the checked config, with `allowPrivateUrls` applied and the
 * profile's points that are configuration too (the profile wins).
 */
function configOf(options: MockServiceOptions, profile: Profile | undefined): MockConfig {
  const parsed = calibratedConfig(parseConfig(options.config ?? {}), profile);
  return options.allowPrivateUrls === undefined
    ? parsed
    : { ...parsed, allowPrivateUrls: options.allowPrivateUrls };
}

/**
 * Makes a change durable before the answer that reports it is built. When the store cannot write
 * it, memory goes back to what the store holds (so memory never runs ahead of disk) and the
 * operation fails with an error, answered as a 500 in the envelope.
 */
function persister(
  store: StateStore,
  state: MockState,
  clock: Clock,
  shift: ClockShift,
  logger: Logger,
): (change: StateChange) => Promise<void> {
  return (change) => {
    if (!store.durable) return done;
    return store.commit(change).catch(async (error: unknown) => {
      try {
        loadRows(await store.read(), state, clock, shift);
      } catch (readError) {
        logger.error('the state store cannot be read back after a failed write', readError);
      }
      throw new Error(`the state could not be stored, nothing was changed: ${(error as Error).message}`);
    });
  };
}

/** Puts memory (state and clock) to what a store's rows hold. */
function loadRows(rows: readonly StateRow[], state: MockState, clock: Clock, shift: ClockShift): void {
  const back = persistedState(rows);
  state.restore(back.snapshot);
  clock.reset?.();
  shift.ms = back.clockAdvancedMs;
  clock.advance(shift.ms);
}

/**
 * Brings a mock's memory up to what a shared store holds, before each request: one question to the
 * store (has anything changed?), and the whole state read again when it has. Requests that arrive
 * while a check runs wait for the next one, which starts after them (a change acknowledged to their
 * client by another mock is then seen); one check serves them all. A store that tells of changes
 * (onChange) has the state read as soon as they commit, so that the check before a request finds it
 * read already.
 */
function follower(
  shared: SharedStore,
  state: MockState,
  clock: Clock,
  shift: ClockShift,
): () => Promise<void> {
  let known: string | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const check = async () => {
    const changed = await shared.changedSince(known);
    if (!changed) return;
    if ('rows' in changed) loadRows(changed.rows, state, clock, shift);
    else
      for (const [account, characters] of changed.characters) state.ledger.setCharacters(account, characters);
    known = changed.version;
  };
  const sync = (): Promise<void> => {
    if (!running) {
      running = check().finally(() => {
        running = undefined;
      });
      return running;
    }
    next ??= running.then(
      () => {
        next = undefined;
        return sync();
      },
      () => {
        next = undefined;
        return sync();
      },
    );
    return next;
  };
  // Told of a change, the mock reads it at once rather than when the next request arrives.
  shared.onChange?.(() => void sync().catch(() => {}));
  return sync;
}

/** What the control API and the service's own methods can do: reset, snapshot, restore, the clock, populate. */
function controlsOf(
  deps: ServiceDeps,
  store: StateStore,
  shift: ClockShift,
  answer: (request: CoreRequest) => Promise<Answer>,
): Controls {
  const { state, persist } = deps;
  const storage = deps.storage as PinnedStorage;
  return {
    reset: async () => {
      // The bytes of what the reset drops go, and only those: an upload or a save in flight lands in
      // the new state with its bytes (clearing the whole storage here lost an acknowledged upload's).
      const dropped = snapshotObjectIds(state.snapshot());
      const since = storage.stamp();
      state.reset();
      deps.clock.reset?.();
      shift.ms = 0;
      await persist(snapshotChange(state.snapshot(), 0));
      await deps.sharedJournal?.clear();
      await storage.removeDropped(dropped, since);
    },
    advanceClock: async (ms: number) => {
      // Shared: added to the stored advance in one statement, so that moves on two mocks add up.
      if (store.shared) await store.shared.advanceClock(ms);
      deps.clock.advance(ms);
      shift.ms += ms;
      if (!store.shared) await persist(clockChange(shift.ms));
    },
    snapshot: () => {
      const snapshot = state.snapshot();
      storage.pin(snapshotObjectIds(snapshot));
      return snapshot;
    },
    restore: (snapshot: MockSnapshot) => {
      const before = snapshotObjectIds(state.snapshot());
      state.restore(snapshot);
      const removeUnused = () => {
        // Bytes of uploads and voices made since the snapshot go with them (pinned ones stay).
        const after = snapshotObjectIds(snapshot);
        for (const id of before) if (!after.has(id)) void storage.remove(id).catch(() => {});
      };
      if (!store.durable) return removeUnused();
      // Durable first; the bytes go only once no stored row names them.
      return persist(snapshotChange(snapshot)).then(removeUnused);
    },
    populate: (populate: PopulateOptions) => populateVoices(deps, populate),
    answer,
  };
}

/** The voices the populate option asks for, made before requests are answered; undefined when none are due. */
function populating(
  options: MockServiceOptions,
  controls: Controls,
  state: MockState,
  logger: Logger,
  done: () => void,
): Promise<void> | undefined {
  if (!options.populate || state.voices.lastSequence !== 0) return undefined;
  return controls.populate(options.populate).then(
    () => done(),
    (error: unknown) => {
      // The mock still answers, without the voices: the failure is reported and `ready` rejects.
      done();
      logger.error('populating the mock failed', error);
      throw error;
    },
  );
}

/**
 * Creates the mock service: one Fetch handler that every adapter (Node server, MSW, in-process) calls.
 *
 * @example
 * const service = createMockService({ validateResponses: true });
 * const res = await service.fetch(new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } }));
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const profile = options.profile === undefined ? undefined : parseProfile(options.profile);
  const config = configOf(options, profile);
  const calibration = calibrationOf(profile);
  // The mock's answers are judged by its own choices: the profile's, and the PCM names it answers with.
  const own = { ...calibration.ownChoices, pcmHeaders: config.pcmHeaders };
  const seed = options.seed ?? 42;
  const audio = options.audio ?? lazyAudioEngine();
  const state = new MockState(config, audio.caches, own);
  const logger = options.logger ?? consoleLogger;
  const store = options.persistence?.store ?? memoryStore();
  // Read before anything else: rows that do not make a valid state throw here (the adapter reports them).
  const persisted = options.persistence ? persistedState(options.persistence.rows) : undefined;
  const clock = options.clock ?? manualClock();
  const shift: ClockShift = { ms: 0 };
  if (persisted?.stored) {
    state.restore(persisted.snapshot);
    shift.ms = persisted.clockAdvancedMs;
    clock.advance(shift.ms);
  }
  // A voice_url must still verify after a restart: a durable store keeps the random signing secret.
  let urlSecret = options.seed === undefined ? persisted?.urlSecret : seedSecret(seed);
  const secretToKeep = urlSecret === undefined && store.durable ? randomSecret() : undefined;
  urlSecret ??= secretToKeep ?? randomSecret();
  const persist = persister(store, state, clock, shift, logger);
  const sleep = options.sleep ?? defaultSleep;
  const deps: ServiceDeps = {
    config,
    calibration,
    callers: callersOf(config.keys),
    seed,
    state,
    logger,
    clock,
    storage: pinnedStorage(options.storage ?? memoryStorage()),
    persist,
    decide:
      store.shared?.decisions({
        freeCloneUses: config.freeCloneUses,
        uploadsPerHour: config.uploadsPerHour,
        uploadWindowMs: limits.uploadRateWindowSeconds.value * 1000,
      }) ?? localDecisions(state, persist),
    sharedJournal: store.shared?.journal,
    signer: createSigner(seedSecret(seed), state.caches.signatures),
    // Without an explicit seed nobody can forge a voice_url; with one, runs are reproducible instead.
    urlSigner: createSigner(urlSecret, state.caches.urlSignatures),
    audio,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    resolveHost: options.resolveHost,
    sleep,
    turns: new FairTurns(sleep),
  };
  const violations: string[] = [];
  const answerNow = answerer(deps, options.validateResponses === true, violations, () => controls);
  // Requests wait for the voices the populate option asks for.
  const answerWhenReady = (request: CoreRequest): Promise<Answer> => {
    if (!ready) return answerNow(request);
    const again = () => answerWhenReady(request);
    return ready.then(again, again);
  };
  // Answers being made: the warm-up waits while there are any, or while audio renders (quietTurns), so that a client's request waits for one piece of it at
  // most, never for the rest.
  let answering = 0;
  const answered = (made: Answer): Answer => {
    answering--;
    return made;
  };
  const failed = (error: unknown): never => {
    answering--;
    throw error;
  };
  // A mock of a shared store answers from memory brought up to the store's state first.
  const shared = store.shared && follower(store.shared, state, clock, shift);
  const answerSynced = shared
    ? (request: CoreRequest): Promise<Answer> => shared().then(() => answerWhenReady(request))
    : answerWhenReady;
  const answer = (request: CoreRequest): Promise<Answer> => {
    answering++;
    return answerSynced(request).then(answered, failed);
  };
  let closed = false;
  const controls = controlsOf(deps, store, shift, answer);
  if (secretToKeep !== undefined) void persist(urlSecretChange(secretToKeep)).catch(() => {});
  let ready = populating(options, controls, state, logger, () => {
    ready = undefined;
  });
  const readyPromise = ready ?? done;
  readyPromise.catch(() => {});

  return {
    config,
    ...(profile ? { profile } : {}),
    clock: deps.clock,
    state,
    responseViolations: violations,
    ...controls,
    // Closures, not methods: `fetch: service.fetch` (handed to a client or the conformance runner)
    // must work unbound.
    fetch: async (input, init) => asResponse(await answer(requestOf(input, init))),
    answer,
    ready: readyPromise,
    warm: async () => {
      const throwaway = createMockService({
        config: options.config ?? {},
        audio,
        logger: { error: () => {} },
      });
      const apiKey = config.keys[0]?.key;
      const nextTurn = quietTurns(
        sleep,
        () => answering > 0 || !deps.turns.idle,
        () => closed,
      );
      await warmUp(throwaway, apiKey, config.maxTextLength, nextTurn);
    },
    close: async () => {
      closed = true;
      await deps.storage.close();
      await store.close();
    },
  };
}

/**
 * The service's answer to one request, once it is ready: parsed once (the router, the operation and
 * the request log all read the target), routed to the control API or the pipeline, checked against
 * the YAML when `validateResponses`, and logged. Never rejects for a request: a bug is a 500.
 */
function answerer(
  deps: ServiceDeps,
  validateResponses: boolean,
  violations: string[],
  controls: () => Controls,
): (request: CoreRequest) => Promise<Answer> {
  const { state, logger } = deps;

  function handle(request: CoreRequest, target: Target): Promise<Handled> {
    if (target.control) {
      return handleControl(request, deps, controls()).then((answer) => ({ answer, operationId: null }));
    }
    const handled = runPipeline(request, deps, target);
    if (!validateResponses) return handled;
    return handled.then(async (handled) => {
      if (!handled.operationId) return handled;
      const report = (violation: string) => {
        violations.push(violation);
        logger.error(violation);
      };
      const own = { ...deps.calibration.ownChoices, pcmHeaders: deps.config.pcmHeaders };
      const answer = await checkResponse(handled.operationId, handled.answer, report, own);
      return answer === handled.answer ? handled : { ...handled, answer };
    });
  }

  /** A request that failed in the mock itself: a loud 500 in the envelope, reported to the logger. */
  function unexpected(request: CoreRequest, error: unknown): Handled {
    logger.error(`unexpected error on ${request.method} ${request.url}`, error);
    const { status, code, message } = errors.unexpected;
    return {
      answer: failureAnswer(status, code, `${message}: ${(error as Error)?.message}`),
      operationId: null,
    };
  }

  /** Logs a handled request (the log never costs an answer) and gives its answer. */
  function logged(request: CoreRequest, target: Target, started: number, handled: Handled): Answer {
    if (target.control) return handled.answer;
    // A line that cannot be made is reported; the answer still goes.
    try {
      const { answer } = handled;
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const entry = logEntry(request, handled, deps, target.pathname, durationMs);
      const streamed = answer instanceof StreamAnswer ? answer : undefined;
      const exchange = keepExchange(request, answer, handled.received);
      const added = state.requests.add(entry, streamed, handled.sent, exchange);
      deps.sharedJournal?.append(added);
    } catch (error) {
      logger.error(`the request log could not record ${request.method} ${target.pathname}`, error);
    }
    return handled.answer;
  }

  return async (request) => {
    const target = targetOf(request.url, state.caches.targets);
    const started = performance.now();
    let handled: Handled;
    try {
      handled = await handle(request, target);
    } catch (error) {
      handled = unexpected(request, error);
    }
    return logged(request, target, started, handled);
  };
}

/**
 * The request `service.fetch` was given, as `fetch` reads its arguments: a URL (anything without a
 * `method`: a string, a `URL` of any realm) and an `init` make a Request, as does a Request with an
 * `init`; a request with no `init` is answered as is.
 */
function requestOf(input: string | URL | Request | CoreRequest, init: RequestInit | undefined): CoreRequest {
  if (typeof input === 'string' || !('method' in input)) return new Request(String(input), init);
  if (init === undefined) return input;
  if (input instanceof Request) return new Request(input, init);
  throw new TypeError('service.fetch: an init goes with a URL or a Fetch Request, not with a CoreRequest');
}
