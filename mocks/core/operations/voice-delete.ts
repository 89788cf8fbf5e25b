import type { Operation } from '../context.js';
import { fail, ok } from '../envelope.js';
import { voiceSpace } from '../state/tenancy.js';

/**
 * DELETE /v1/voice/{voice_id} (§4.4): removes a custom voice of the caller's organization and
 * environment, by its exact id (no normalization). Idempotent: a missing voice, or another
 * organization's, answers success and nothing changes. System voices are never removed.
 */
export const voiceDelete: Operation = async ({ caller, pathParams, deps }) => {
  const id = pathParams.voice_id ?? '';
  const system = deps.audio.systemVoices.some((v) => v.id === id) || id === deps.config.defaultVoice;
  if (system) return fail('systemVoiceNotDeletable', `${id} is a system voice and cannot be deleted`);
  const removed = deps.state.voices.remove(voiceSpace(caller), id);
  if (removed?.ownsAudio) await deps.storage.remove(removed.audioId);
  return ok(null);
};
