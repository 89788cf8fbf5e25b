import type { AudioFormat } from '../../openapi/contract.js';

/** What an API key may do (§5.2). */
export interface Capabilities {
  readonly tts: boolean;
  readonly upload: boolean;
  readonly voiceCloning: boolean;
}

/**
 * One API key and the tenancy it fixes (§5): who calls (user), whose voices (organization), which
 * project space and API environment its uploads belong to, and which billing account pays.
 */
export interface KeyConfig {
  readonly key: string;
  readonly user: string;
  readonly organization: string;
  readonly project: string;
  readonly environment: string;
  readonly account: string;
  readonly capabilities: Capabilities;
}

/** Names of the three PCM headers (§2.5; the spec does not name them). */
export interface PcmHeaderNames {
  readonly sampleRate: string;
  readonly channels: string;
  readonly bitDepth: string;
}

/** The whole mock configuration, every field resolved. A config file gives any subset of it. */
export interface MockConfig {
  readonly keys: readonly KeyConfig[];
  /** Voice ids nobody may create, besides the system voices (§4.2 rule 2, "reserved"). */
  readonly reservedVoiceIds: readonly string[];
  /** Free clone uses each billing account starts with (`free-uses-and-price`). */
  readonly freeCloneUses: number;
  /** Successful uploads per user per sliding hour (§8). */
  readonly uploadsPerHour: number;
  /** Longest generate_text, in characters (`max-text-length`). */
  readonly maxTextLength: number;
  readonly languages: readonly string[];
  readonly emotions: readonly string[];
  readonly audioFormats: readonly AudioFormat[];
  readonly defaultVoice: string;
  readonly defaultAudioFormat: AudioFormat;
  readonly pcmHeaders: PcmHeaderNames;
  readonly streaming: {
    /** Milliseconds of audio per streamed chunk (`stream-chunking`). */
    readonly chunkMs: number;
    /** Wait before the first streamed chunk, to imitate provider latency. 0 = none. */
    readonly firstChunkDelayMs: number;
    /** When true, chunks are paced at real time (a 100 ms chunk every 100 ms). */
    readonly realtime: boolean;
  };
  readonly reference: {
    /** Longest allowed pause inside speech, seconds (`pause-limit`). */
    readonly maxPauseSeconds: number;
    /** Least total speech, seconds (`usable-speech-criteria`). */
    readonly minSpeechSeconds: number;
    /** Timeout for fetching a ref_audio URL, milliseconds. */
    readonly fetchTimeoutMs: number;
  };
  /** Lifetime of a list's voice_url, seconds of the mock clock (`voice-url-lifetime`). */
  readonly signedUrlTtlSeconds: number;
  /** How many recent requests GET /__mock/requests keeps. */
  readonly requestLogSize: number;
  /**
   * Fetch ref_audio URLs of loopback, private, link-local and other non-public addresses (local
   * fixtures). Off by default: §4.2 asks for a publicly reachable URL, and a mock that fetches any
   * address lets whoever can call it probe the network it runs in.
   */
  readonly allowPrivateUrls: boolean;
}

/** A config file's content: any subset of MockConfig; nested objects may be partial too. */
export type MockConfigInput = {
  readonly [K in keyof MockConfig]?: MockConfig[K] extends readonly unknown[]
    ? MockConfig[K]
    : MockConfig[K] extends object
      ? Partial<MockConfig[K]>
      : MockConfig[K];
};
