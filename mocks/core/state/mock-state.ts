import type { OwnChoices } from '../../../judge/judge.js';
import { limits, type ReferenceVerdict } from '../../../openapi/contract.js';
import type { MockConfig } from '../../config/types.js';
import { type EngineCaches, ServiceCaches } from './caches.js';
import { KeptMap } from './kept-map.js';
import { Ledger, type LedgerSnapshot } from './ledger.js';
import { type RateLimitSnapshot, UploadRateLimiter } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { snapshotProblem } from './snapshot-check.js';
import { type UploadRecord, Uploads } from './uploads.js';
import { Voices, type VoicesSnapshot } from './voices.js';

/**
 * Everything the mock remembers, JSON-serializable (uploaded bytes stay in Storage, referenced by id).
 * `version` lets restore() refuse a snapshot of another shape.
 */
/**
 * What the reference analysis said of an upload, kept for the state view (GET /__mock/state): recorded
 * when a voice save analyses it, or on POST /__mock/uploads/analyze. Derived from the bytes, so it is
 * not part of a snapshot.
 */
export interface UploadAnalysis {
  /** `accepted`, or the refusal verdict (contract.referenceVerdicts). */
  verdict: 'accepted' | ReferenceVerdict;
  container: string;
  codec: string | null;
  durationSeconds: number | null;
  /** Why it was refused; null when accepted. */
  reason: string | null;
}

export interface MockSnapshot {
  version: 1;
  uploads: { sequence: number; records: UploadRecord[] };
  voices: VoicesSnapshot;
  uploadTimes: RateLimitSnapshot;
  ledger: LedgerSnapshot;
}

/**
 * The mock's state: uploads, voices, the upload rate limiter, the billing ledger, the request log, and
 * the caches that only make answers faster (reset and restore empty them).
 */
export class MockState {
  uploads = new Uploads();
  voices = new Voices();
  rateLimit: UploadRateLimiter;
  ledger: Ledger;
  readonly requests: RequestLog;
  readonly caches: ServiceCaches;
  /** Analyses of uploads by object key, for the state view; bounded, emptied by reset and restore. */
  readonly analyses = new KeptMap<string, UploadAnalysis>(1024);

  constructor(
    private readonly config: MockConfig,
    engineCaches?: EngineCaches,
    /** What the journal's verdicts hold as the mock's own choices (a calibration profile's). */
    own: OwnChoices = {},
  ) {
    this.caches = new ServiceCaches(engineCaches);
    this.rateLimit = this.newLimiter();
    this.ledger = new Ledger(config.freeCloneUses);
    this.requests = new RequestLog(config.requestLogSize, own);
  }

  private newLimiter(): UploadRateLimiter {
    return new UploadRateLimiter(this.config.uploadsPerHour, limits.uploadRateWindowSeconds.value * 1000);
  }

  /** Forgets everything (the request log too). */
  reset(): void {
    this.uploads = new Uploads();
    this.voices = new Voices();
    this.rateLimit = this.newLimiter();
    this.ledger = new Ledger(this.config.freeCloneUses);
    this.requests.clear();
    this.analyses.clear();
    this.caches.clear();
  }

  snapshot(): MockSnapshot {
    return {
      version: 1,
      uploads: this.uploads.snapshot(),
      voices: this.voices.snapshot(),
      uploadTimes: this.rateLimit.snapshot(),
      ledger: this.ledger.snapshot(),
    };
  }

  /** Replaces the state with a snapshot's; a malformed snapshot throws and leaves the state as it was. */
  restore(snapshot: MockSnapshot): void {
    const problem = snapshotProblem(snapshot);
    if (problem !== undefined) throw new TypeError(`not a voice-kit mock snapshot: ${problem}`);
    const uploads = new Uploads();
    const voices = new Voices();
    const rateLimit = this.newLimiter();
    const ledger = new Ledger(this.config.freeCloneUses);
    uploads.restore(snapshot.uploads);
    voices.restore(snapshot.voices);
    rateLimit.restore(snapshot.uploadTimes);
    ledger.restore(snapshot.ledger);
    Object.assign(this, { uploads, voices, rateLimit, ledger });
    this.analyses.clear();
    this.caches.clear();
  }
}
