import { points } from '../../../profile/points.js';
import { type Answer, BytesAnswer } from '../answer/answer.js';
import { okBytes, okJsonBytes } from '../answer/envelope.js';
import type { CoreRequest, ServiceDeps } from '../context.js';
import { signVoiceUrl, voiceUrlExpiry } from '../reference/signed-url.js';
import type { UploadAnalysis } from '../state/mock-state.js';
import { maskKey } from '../state/request-log.js';
import type { KeptVoices } from '../state/state-view-cache.js';
import type { VoiceRecord } from '../state/voices.js';

/** The parts of a space key (`organization\0[project\0]environment`, see state/tenancy.ts). */
const partsOf = (space: string): string[] => space.split('\u0000');

/** A 53-bit hash (cyrb53) of a string, in base 36: the validator of a small JSON text. */
function hashOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The voice_url expiry the state view signs for: a whole step of half the TTL (at least a minute)
 * when the TTL is two minutes or more, so the voices part is signed again every half TTL, not every
 * poll; a voice_url shown there is valid at least half the TTL.
 */
function viewExpiry(deps: ServiceDeps): number {
  const exact = voiceUrlExpiry(deps);
  const ttl = deps.config.signedUrlTtlSeconds;
  if (ttl < 120) return exact;
  const step = Math.max(60, Math.floor(ttl / 120) * 60);
  return Math.floor(exact / step) * step;
}

/** One custom voice of GET /__mock/state, with a voice_url signed to `expires`. */
async function voiceView(deps: ServiceDeps, origin: string, voice: VoiceRecord, expires: number) {
  const [organization = '', environment = ''] = partsOf(voice.space);
  return {
    organization,
    environment,
    voiceId: voice.voiceId,
    createdAt: voice.createdAt,
    account: voice.account,
    // An upload's object key when the voice was made from one; null when ref_audio was a URL.
    sourceUpload: voice.ownsAudio ? null : voice.audioId,
    // Where its recording came from, for people: an upload, a ref_audio URL, or POST /__mock/populate.
    source: voice.populated
      ? ('populated' as const)
      : voice.ownsAudio
        ? ('url' as const)
        : ('upload' as const),
    mediaType: voice.audioMediaType,
    voiceUrl: await signVoiceUrl(deps, origin, voice.ref, expires),
  };
}

/**
 * The custom voices per organization and environment with a playable voice_url and the upload they
 * came from, as JSON: kept in `state.caches.stateView` while the voice store, the origin and the
 * expiry stay the same, so a poll of a mock with thousands of voices neither signs nor serializes them.
 */
export async function voicesPart(deps: ServiceDeps, origin: string): Promise<KeptVoices> {
  const { state } = deps;
  const expires = viewExpiry(deps);
  const key = state.caches.stateView.keyOf(state.voices, origin, expires);
  const kept = state.caches.stateView.get(key);
  if (kept) return kept;
  const voices = await Promise.all(
    state.voices.all().map((voice) => voiceView(deps, origin, voice, expires)),
  );
  const json = JSON.stringify(voices);
  const part = { tag: `v${hashOf(key)}.${hashOf(json)}`, json, count: voices.length };
  // Kept only if the store did not change while the voices were signed.
  if (state.caches.stateView.keyOf(state.voices, origin, expires) === key)
    state.caches.stateView.keep(key, part);
  return part;
}

/**
 * The calibration profile's points in effect (docs/calibration.md), each with its choice; null when
 * the mock answers with its own choices everywhere.
 */
function profileView({ calibration }: ServiceDeps) {
  const { profile } = calibration;
  if (!profile) return null;
  return {
    ...(profile.observed ? { observed: profile.observed } : {}),
    points: calibration.points.map((id) => ({
      point: id,
      question: points[id].question,
      choice: profile.points[id]?.choice,
    })),
  };
}

/** Everything of the state view but the voices: small (keys, uploads, quotas, accounts), made each time. */
function restOf(deps: ServiceDeps) {
  const { state, config, clock } = deps;
  const now = clock.now();
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
  const head = {
    clock: { now: Math.floor(now / 1000), iso: new Date(now).toISOString() },
    profile: profileView(deps),
    keys: config.keys.map((k) => ({
      key: maskKey(k.key),
      user: k.user,
      organization: k.organization,
      project: k.project,
      environment: k.environment,
      account: k.account,
      capabilities: k.capabilities,
    })),
  };
  const tail = {
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
  return { head, tail };
}

/** One custom voice of GET /__mock/state (the dashboard draws it by this type). */
export type VoiceView = Awaited<ReturnType<typeof voiceView>>;

/** GET /__mock/state's data (the dashboard reads it by this type; `?voices=none` leaves `voices` out). */
export type StateView = ReturnType<typeof restOf>['head'] &
  ReturnType<typeof restOf>['tail'] & { voices: VoiceView[]; voicesTag: string; voiceCount: number };

/** A JSON answer with its strong validator, or 304 with no body when the client holds those bytes. */
function validated(request: CoreRequest, tag: string, dataJson: () => string): Answer {
  const etag = `"${tag}"`;
  const held = request.headers.get('if-none-match');
  if (held?.split(',').some((t) => t.trim() === etag || t.trim() === '*'))
    return new BytesAnswer(304, new Uint8Array(0), { ETag: etag });
  const answer = okBytes(okJsonBytes(dataJson()));
  return new BytesAnswer(200, answer.bytes, { ...answer.headers, ETag: etag });
}

/**
 * GET /__mock/state: what the mock holds, shaped for people (the dashboard draws it, a script can read
 * it): custom voices per organization and environment with a playable voice_url and the upload they
 * came from, uploads with what the reference analysis said of them, upload quotas left per user, free
 * clone uses and the ledger per account, the clock, and where the request log stands (for reading on
 * with GET /__mock/requests?after=N). Keys are masked, as in the request log. `voicesTag` is the
 * validator of the voices (GET /__mock/state/voices); `?voices=none` leaves the voices out, for a
 * poll that reads them only when that tag moves. Answers carry a strong ETag; `If-None-Match` with
 * it is answered 304.
 *
 * @example
 * const answer = await stateAnswer(deps, request);
 */
export async function stateAnswer(deps: ServiceDeps, request: CoreRequest): Promise<Answer> {
  const url = new URL(request.url);
  const voices = await voicesPart(deps, url.origin);
  const { head, tail } = restOf(deps);
  const withVoices = url.searchParams.get('voices') !== 'none';
  const headJson = JSON.stringify(head).slice(0, -1);
  const tailJson = JSON.stringify({ ...tail, voicesTag: voices.tag, voiceCount: voices.count }).slice(1);
  const rest = hashOf(headJson + tailJson);
  return validated(request, `s${withVoices ? 'a' : 'n'}.${voices.tag}.${rest}`, () =>
    withVoices ? `${headJson},"voices":${voices.json},${tailJson}` : `${headJson},${tailJson}`,
  );
}

/**
 * GET /__mock/state/voices: the voices of the state view alone, `{"voices": [...]}`, with the strong
 * ETag `voicesTag` names: a client that holds them gets 304 without a byte of them.
 */
export async function stateVoicesAnswer(deps: ServiceDeps, request: CoreRequest): Promise<Answer> {
  const voices = await voicesPart(deps, new URL(request.url).origin);
  return validated(request, voices.tag, () => `{"voices":${voices.json}}`);
}

/** The state view as a value (GET /__mock/state's data), for tests and scripts that hold the service itself. */
export async function stateView(deps: ServiceDeps, origin: string) {
  const answer = await stateAnswer(deps, new Request(`${origin}/__mock/state`));
  return JSON.parse(new TextDecoder().decode((answer as BytesAnswer).bytes)).data;
}
