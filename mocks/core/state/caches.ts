import type { Target } from '../request/target.js';
import { CompleteAudioCache } from './complete-audio-cache.js';
import { KeptMap } from './kept-map.js';
import { ListAnswers } from './list-answers.js';
import { StateViewCache } from './state-view-cache.js';

/**
 * The longest key a memo fed by requests keeps (a URL, a signed message): longer ones are made again
 * each time. With each memo's entry cap, this bounds every memo by bytes (~2 MB each at most), however
 * long the paths anyone sends without a key.
 */
export const memoKeyMaxChars = 512;

/** Memos an audio engine keeps of its own (parsed texts, synthesis plans), if it keeps any. */
export interface EngineCaches {
  clear(): void;
}

/**
 * Everything the service keeps only to answer faster: each is derived from the state and the request,
 * bounded, and never changes an answer (a test checks that answers are the same with them emptied).
 * Owned by the service's state (`service.state.caches`), so nothing is hidden in a module, and emptied
 * by reset() and restore().
 */
export class ServiceCaches {
  /** Parsed request URLs, per href. */
  readonly targets = new KeptMap<string, Target>(512, memoKeyMaxChars);
  /** List answers kept per request URL, and each voice's entry JSON (§4.3). */
  readonly lists = new ListAnswers();
  /** Complete synthesis results, least recently used first out, bounded by bytes. */
  readonly completeAudio = new CompleteAudioCache();
  /** HMAC signatures (object keys, voice_url signatures) per message: Web Crypto costs ~50 µs a call. */
  readonly signatures = new KeptMap<string, Promise<string>>(4096, memoKeyMaxChars);
  /** voice_url signatures per message (their own secret, so their own memo). */
  readonly urlSignatures = new KeptMap<string, Promise<string>>(4096, memoKeyMaxChars);
  /** The request log's masked form of each X-API-Key sent (`maskKey`): clients send the same few. */
  readonly maskedKeys = new KeptMap<string, string | null>(64, memoKeyMaxChars);
  /** The voices of GET /__mock/state, signed and serialized once per version of the store. */
  readonly stateView = new StateViewCache();

  constructor(
    /** The audio engine's own memos, when the engine has any. */
    readonly engine?: EngineCaches,
  ) {}

  clear(): void {
    this.targets.clear();
    this.lists.clear();
    this.completeAudio.clear();
    this.signatures.clear();
    this.urlSignatures.clear();
    this.maskedKeys.clear();
    this.stateView.clear();
    this.engine?.clear();
  }
}
