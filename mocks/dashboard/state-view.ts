/** GET /__mock/state, as the page reads it. */

export interface Voice {
  organization: string;
  environment: string;
  voiceId: string;
  createdAt: number;
  account: string;
  sourceUpload: string | null;
  /** Where its recording came from: an upload, a ref_audio URL, or POST /__mock/populate. */
  source?: 'upload' | 'url' | 'populated';
  mediaType: string;
  voiceUrl: string;
}

export interface Upload {
  objectKey: string;
  fileName: string;
  size: number;
  scene: string;
  organization: string;
  project: string;
  environment: string;
  user: string;
  uploadedAt: number;
  analysis: {
    verdict: string;
    container: string;
    codec: string | null;
    durationSeconds: number | null;
    reason: string | null;
  } | null;
}

export interface StateView {
  clock: { now: number; iso: string };
  /** The calibration profile's points in effect (docs/calibration.md); null without one. */
  profile?: { points: { point: string; question: string; choice: unknown }[] } | null;
  voices: Voice[];
  uploads: Upload[];
  quotas: { user: string; uploadsLeft: number; uploadsPerHour: number }[];
  accounts: {
    account: string;
    freeCloneUsesLeft: number;
    freeCloneUsesPerAccount: number;
    chargedCreations: { voice_id: string; created_at: number }[];
    synthesizedCharacters: number;
  }[];
  requests: { lastSeq: number; clears: number; size: number; capacity: number };
}
