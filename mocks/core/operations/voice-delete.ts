import { mockWarningHeader, normalizeVoiceId } from '../../../openapi/contract.js';
import { fail, failureAnswer, ok, quoted } from '../answer/envelope.js';
import { dataFor } from '../calibration.js';
import type { Operation } from '../context.js';

/**
 * DELETE /v1/voice/{voice_id} (§4.4): removes a custom voice of the caller's organization and
 * environment, by its exact id (no normalization). Idempotent: a missing voice, or another
 * organization's, answers success and nothing changes. System voices are never removed. An id that
 * only matches once normalized ("My_Voice" for "my_voice") adds an X-Mock-Warning header.
 */
export const voiceDelete: Operation = async ({ caller, pathParams, deps }) => {
  const id = pathParams.voice_id ?? '';
  const system = deps.audio.systemVoices.some((v) => v.id === id) || id === deps.config.defaultVoice;
  if (system) return fail('systemVoiceNotDeletable', `${id} is a system voice and cannot be deleted`);
  const space = caller.voiceSpace;
  const removed = await deps.decide.deleteVoice(space, id);
  // The bytes go only once no stored voice names them.
  if (removed?.ownsAudio) await deps.storage.remove(removed.audioId);
  // Success is right (§4.4: idempotent, ids exactly as returned), but deleting "My_Voice" when the
  // mock holds "my_voice" is most likely a client that sends the id it saved, not the one returned.
  const normalized = normalizeVoiceId(id);
  const { deleteData, deleteMissing } = deps.calibration;
  // A deployment that refuses deleting a missing voice (the profile's `delete-response-body/missing`).
  if (!removed && deleteMissing)
    return failureAnswer(deleteMissing.status, deleteMissing.code, `no voice ${quoted(id)} to delete`);
  const data = deleteData ? dataFor(deleteData, normalized) : null;
  if (!removed && normalized !== id && deps.state.voices.find(space, normalized)) {
    return ok(data, {
      [mockWarningHeader]: `no voice ${quoted(id, true)}; voice ${quoted(normalized, true)} exists - ids are used exactly as returned (spec section 4.4)`,
    });
  }
  return ok(data);
};
