import type { ServiceDeps } from '../context.js';
import { signVoiceUrl, voiceUrlExpiry } from '../reference/signed-url.js';
import type { UploadAnalysis } from '../state/mock-state.js';
import { maskKey } from '../state/request-log.js';

/** The parts of a space key (`organization\0[project\0]environment`, see state/tenancy.ts). */
const partsOf = (space: string): string[] => space.split('\u0000');

/**
 * GET /__mock/state: what the mock holds, shaped for people (the dashboard draws it, a script can read
 * it): custom voices per organization and environment with a playable voice_url and the upload they
 * came from, uploads with what the reference analysis said of them, upload quotas left per user, free
 * clone uses and the ledger per account, the clock, and where the request log stands (for reading on
 * with GET /__mock/requests?after=N). Keys are masked, as in the request log.
 *
 * @example
 * const view = await stateView(deps, 'http://127.0.0.1:4010');
 */
export async function stateView(deps: ServiceDeps, origin: string) {
  const { state, config, clock } = deps;
  const now = clock.now();
  // Read every second by the dashboard: an expiry on a whole minute lets the signature memo answer
  // all the polls of that minute instead of signing every voice again (still at most the TTL).
  const exact = voiceUrlExpiry(deps);
  const expires = config.signedUrlTtlSeconds >= 120 ? Math.floor(exact / 60) * 60 : exact;
  const voices = await Promise.all(
    state.voices.all().map(async (voice) => {
      const [organization = '', environment = ''] = partsOf(voice.space);
      return {
        organization,
        environment,
        voiceId: voice.voiceId,
        createdAt: voice.createdAt,
        account: voice.account,
        // An upload's object key when the voice was made from one; null when ref_audio was a URL.
        sourceUpload: voice.ownsAudio ? null : voice.audioId,
        mediaType: voice.audioMediaType,
        voiceUrl: await signVoiceUrl(deps, origin, voice.ref, expires),
      };
    }),
  );
  const uploads = state.uploads.all().map((upload) => {
    const [organization = '', project = '', environment = ''] = partsOf(upload.space);
    const analysis: UploadAnalysis | null = state.analyses.get(upload.objectKey) ?? null;
    return {
      objectKey: upload.objectKey,
      fileName: upload.fileName,
      size: upload.size,
      scene: upload.scene,
      organization,
      project,
      environment,
      user: upload.user,
      uploadedAt: upload.uploadedAt,
      analysis,
    };
  });
  const users = [...new Set(config.keys.map((k) => k.user))];
  const accounts = [...new Set(config.keys.map((k) => k.account))];
  const ledger = state.ledger.snapshot();
  return {
    clock: { now: Math.floor(now / 1000), iso: new Date(now).toISOString() },
    keys: config.keys.map((k) => ({
      key: maskKey(k.key),
      user: k.user,
      organization: k.organization,
      project: k.project,
      environment: k.environment,
      account: k.account,
      capabilities: k.capabilities,
    })),
    voices,
    uploads,
    quotas: users.map((user) => ({
      user,
      uploadsLeft: state.rateLimit.remaining(user, now),
      uploadsPerHour: config.uploadsPerHour,
    })),
    accounts: accounts.map((account) => ({
      account,
      freeCloneUsesLeft: state.ledger.remainingFreeUses(account),
      freeCloneUsesPerAccount: config.freeCloneUses,
      freeUsesConsumed: ledger[account]?.freeUsesConsumed ?? 0,
      chargedCreations: ledger[account]?.chargedCreations ?? [],
      synthesizedCharacters: ledger[account]?.synthesizedCharacters ?? 0,
    })),
    requests: state.requests.position,
  };
}
