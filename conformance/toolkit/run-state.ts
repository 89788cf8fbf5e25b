import type { ProfileRecorder } from '../../profile/recorder.js';
import type { ExtraKeyName } from '../types.js';
import type { FetchLike } from './http.js';
import type { SuiteOracle } from './suite-oracle.js';

/** The keys of a run: the main key and the extra ones a deployment can provide. */
export type RunKeys = { readonly main: string } & { readonly [K in ExtraKeyName]?: string };
export type KeyName = keyof RunKeys;

/** Names of the three PCM headers to look for (the spec does not name them). */
export interface PcmHeaderNames {
  readonly sampleRate: string;
  readonly channels: string;
  readonly bitDepth: string;
}

/** Recordings the cases use, by role. A missing one skips the cases that need it. */
export type FixtureRole =
  | 'valid-3s'
  | 'valid-10s'
  | 'valid-60s'
  | 'valid-3.2s'
  | 'valid-59.5s'
  | 'exactly-20mib'
  | 'mp3-3s'
  | 'mp3-60s'
  | 'short-2.9s'
  | 'long-60.5s'
  | 'silence'
  | 'near-silence'
  | 'long-pause'
  | 'over-20mib'
  | 'corrupt'
  | 'flac-named-wav'
  | 'mp3'
  | 'm4a'
  | 'ogg'
  | 'webm';

export interface FixtureFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export type FixtureSource = (role: FixtureRole) => Promise<FixtureFile | undefined>;

/** A voice id the run used with the key that used it: the cleanup deletes it. */
export interface TrackedVoice {
  readonly keyName: KeyName;
  readonly voiceId: string;
}

/** State shared by every case of one run. */
export interface RunState {
  readonly fetch: FetchLike;
  readonly baseUrl: string;
  readonly keys: RunKeys;
  /** `vk_<6 hex>_`: every voice the run creates starts with it, and the cleanup touches nothing else. */
  readonly prefix: string;
  /** The target is the kit's mock: mock-only promises are checked. */
  readonly targetIsMock: boolean;
  /** The run spends the probes a calibration profile needs (RunOptions.calibrate). */
  readonly calibrate: boolean;
  /** Responses come over real HTTP, so Transfer-Encoding is visible. */
  readonly httpTransport: boolean;
  readonly pcmHeaderNames: PcmHeaderNames;
  /** The positive reference recording (--reference-audio, or the kit's valid fixture). */
  readonly referenceAudio: () => Promise<FixtureFile>;
  /** A publicly reachable URL of a reference recording (--reference-url), when known. */
  readonly referenceUrl: string | undefined;
  readonly fixture: FixtureSource;
  readonly signal: AbortSignal | undefined;
  /** Milliseconds since the epoch, to judge created_at (injected: a mock may run on its own clock). */
  readonly now: () => number;
  readonly tracked: TrackedVoice[];
  /** Object keys of the reference recording, uploaded once per key. */
  readonly referenceKeys: Map<KeyName, string>;
  /** Object keys of fixtures the main key uploaded, by role: a later case saves from them (the §8 quota). */
  readonly fixtureKeys: Map<FixtureRole, string>;
  voicesCreated: number;
  /** `key\0voice_id` of every voice a save created and no delete has removed yet. */
  readonly liveVoices: Set<string>;
  /** Successful deletes of live voices, by cases or the cleanup (the runner tells them apart). */
  voicesDeleted: number;
  uploads: number;
  counter: number;
  /** Reads every exchange of the run for the profile of the deployment's spec-silent choices. */
  readonly recorder?: ProfileRecorder;
  /** Compares every exchange of the cases with the contract's model (oracle/); none: not compared. */
  readonly oracle?: SuiteOracle;
}
