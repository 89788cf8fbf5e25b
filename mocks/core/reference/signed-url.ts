import type { ServiceDeps } from '../context.js';
import { unixSeconds } from '../platform/clock.js';

/** Path prefix of the mock-served reference audio behind every voice_url. */
export const voiceAudioPath = '/__mock/voice-audio/';

/** The `expires` a voice_url signed now carries (unix seconds of the mock clock). */
export const voiceUrlExpiry = (deps: ServiceDeps): number =>
  unixSeconds(deps.clock) + deps.config.signedUrlTtlSeconds;

/**
 * A temporary signed address of a voice's reference audio (§2.3 voice_url): HMAC over the voice's
 * opaque reference and the expiry, valid `signedUrlTtlSeconds` of the mock clock.
 *
 * @example
 * await signVoiceUrl(deps, 'https://mock.test', voice.ref); // https://mock.test/__mock/voice-audio/…?expires=…&signature=…
 */
export async function signVoiceUrl(
  deps: ServiceDeps,
  origin: string,
  ref: string,
  expires: number = voiceUrlExpiry(deps),
): Promise<string> {
  const signature = await deps.urlSigner.sign(`voice-url\u0000${ref}\u0000${expires}`);
  return `${origin}${voiceAudioPath}${ref}?expires=${expires}&signature=${signature}`;
}

/**
 * Checks a voice_url's signature and lifetime; returns the voice reference when both hold.
 *
 * @example
 * const ref = await verifyVoiceUrl(deps, new URL(request.url)); // undefined when tampered or expired
 */
export async function verifyVoiceUrl(deps: ServiceDeps, url: URL): Promise<string | undefined> {
  const ref = url.pathname.slice(voiceAudioPath.length);
  const expires = url.searchParams.get('expires') ?? '';
  const signature = url.searchParams.get('signature') ?? '';
  if (!/^\d{1,12}$/.test(expires) || Number(expires) < unixSeconds(deps.clock)) return undefined;
  return (await deps.urlSigner.verify(`voice-url\u0000${ref}\u0000${expires}`, signature)) ? ref : undefined;
}
