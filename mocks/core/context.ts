import type {
  Analysis,
  AnalyzeOptions,
  SynthesisRequest,
  SynthesisStream,
  VoiceProfile,
} from '../../audio/types.js';
import type { OperationId } from '../../openapi/contract.js';
import type { MockConfig } from '../config/types.js';
import type { Answer } from './answer/answer.js';
import type { Failure } from './answer/envelope.js';
import type { FairTurns } from './answer/fair-turns.js';
import type { Calibration } from './calibration.js';
import type { Clock } from './platform/clock.js';
import type { Signer } from './platform/signer.js';
import type { Storage } from './platform/storage.js';
import type { Preferences } from './request/scenario.js';
import type { EngineCaches } from './state/caches.js';
import type { StateDecisions } from './state/decisions.js';
import type { MockState } from './state/mock-state.js';
import type { SharedJournal, StateChange } from './state/state-store.js';
import type { Caller } from './state/tenancy.js';

/** What the mock needs from the audio engine (audio); injectable so tests can observe it. */
export interface AudioEngine {
  analyze(bytes: Uint8Array, options?: AnalyzeOptions & { fileName?: string }): Promise<Analysis>;
  /** May resolve later: the default engine imports the synthesizer on first use. */
  synthesize(request: SynthesisRequest): SynthesisStream | Promise<SynthesisStream>;
  readonly systemVoices: readonly VoiceProfile[];
  profileFromReference(voiceId: string, measured: { pitchHz: number | null }, seed: number): VoiceProfile;
  /** The engine's own memos, if it keeps any: the service owns them (state.caches.engine) and empties them on reset. */
  readonly caches?: EngineCaches;
}

/** Where the mock reports what should never happen (a 500, a response that breaks the schema). */
export interface Logger {
  error(message: string, detail?: unknown): void;
}

/** The injected world of one mock service. */
export interface ServiceDeps {
  readonly config: MockConfig;
  /** What a calibration profile chose where the spec is silent (the mock's own choices without one). */
  readonly calibration: Calibration;
  /** The configured keys by key, with their spaces (tenancy.ts). */
  readonly callers: ReadonlyMap<string, Caller>;
  readonly seed: number;
  readonly clock: Clock;
  readonly storage: Storage;
  /** Signs object keys and voice references: keyed from the seed, so the same seed gives the same ids. */
  readonly signer: Signer;
  /** Signs voice_url addresses: a random secret unless a seed was given (then anyone with it can forge). */
  readonly urlSigner: Signer;
  readonly audio: AudioEngine;
  /** Used to fetch ref_audio URLs (§4.2). */
  readonly fetch: typeof fetch;
  /** The addresses of a host name, to refuse non-public ones before fetching (the Node server's DNS). */
  readonly resolveHost?: ((hostname: string) => Promise<readonly string[]>) | undefined;
  readonly sleep: (ms: number) => Promise<void>;
  /** The round-robin turns every audio answer renders in, so concurrent ones share the event loop. */
  readonly turns: FairTurns;
  readonly logger: Logger;
  /**
   * Makes a state change durable (a no-op without a state directory); await it before answering.
   * Rejects when it could not be stored, after putting memory back to what is stored.
   */
  readonly persist: (change: StateChange) => Promise<void>;
  /** Where saves, uploads, deletes and charges are decided: this mock's memory, or a shared store. */
  readonly decide: StateDecisions;
  /** The journal of every mock of a shared store; undefined for a mock alone (state.requests is its journal). */
  readonly sharedJournal?: SharedJournal | undefined;
  /** The live state; read it through here, since reset() and restore() replace its parts. */
  readonly state: MockState;
}

/**
 * What the core reads of a request: the part of a Fetch `Request` it uses, so every Request is one.
 * The Node adapter hands in a lighter object for a body-less GET: on Node 20 building a Request (and
 * its AbortSignal and Headers) costs about as much as the rest of a list answer.
 */
export interface CoreRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /**
   * The whole body, when the adapter has read it before the core (the Node server reads a small body
   * with a Content-Length whole): a reader takes these bytes instead of `body`, and nothing is left to
   * drain. A web stream over them, made and read back, cost a 5,000-character stream ~0.07 ms of its
   * first byte on the Node server; `body` then streams the same bytes, made only if something asks.
   */
  readonly bodyBytes?: Uint8Array;
  /** Aborts when the client goes away before the answer is complete. */
  readonly signal: AbortSignal;
}

/** One request, routed, authenticated and validated against the OpenAPI description. */
export interface OperationContext {
  readonly operationId: OperationId;
  readonly request: CoreRequest;
  /** The parsed request URL, shared with other requests for the same URL: read it, never change it. */
  readonly url: URL;
  readonly caller: Caller;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: Record<string, string>;
  /** The parsed JSON body for JSON operations; undefined otherwise. */
  readonly body: unknown;
  readonly preferences: Preferences;
  readonly deps: ServiceDeps;
}

/** An operation holds only the behaviour the schema cannot express; it may answer at once or later. */
export type Operation = (context: OperationContext) => Answer | Failure | Promise<Answer | Failure>;
