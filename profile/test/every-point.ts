/** A valid choice for every point of the catalogue, unlike the mock's own: what tests calibrate with. */
export const everyPoint: Record<string, unknown> = {
  'voice-save-statuses/10018': { status: 400 },
  'voice-save-statuses/20010': { status: 400 },
  'voice-save-statuses/20012': { status: 415 },
  'voice-save-statuses/20015': { status: 422 },
  'voice-save-statuses/20016': { status: 422 },
  'voice-save-statuses/20017': { status: 422 },
  'voice-id-invalid-characters': { status: 422, error_code: 10001 },
  'ref-audio-not-accessible': { status: 404, error_code: 20012 },
  'voice-cloning-disabled-error': { status: 401, error_code: 10003 },
  'voice-save-data': { data: { voice_id: '{voice_id}', status: 'ready' } },
  'list-order': { order: 'newest-first' },
  'page-size-out-of-range': { status: 422, error_code: 10001 },
  'list-errors/unknown-cursor': { status: 404, error_code: 10004 },
  'delete-response-body': { data: { deleted: '{voice_id}' } },
  'delete-response-body/missing': { status: 404, error_code: 10004 },
  'delete-refused-status': { status: 400, error_code: 10001 },
  'pcm-header-names': { sampleRate: 'X-Sample-Rate', channels: 'X-Channels', bitDepth: 'X-Bits' },
  'default-audio-format': { complete: 'mp3', stream: 'pcm' },
  'text-alias': { accepted: true },
  'max-text-length': { characters: 5000 },
  'max-text-length/refusal': { status: 413, error_code: 10001 },
  'synthesis-errors/unknown-voice': { status: 404, error_code: 10001 },
  'synthesis-errors/missing-text': { status: 422, error_code: 10001 },
  'synthesis-errors/negative-speed': { status: 422, error_code: 10001 },
  'allowed-options/refusal': { status: 422, error_code: 10001 },
  'upload-retry-after': { header: false },
  'reference-duration-boundaries': { shortest: 'exclusive', longest: 'exclusive' },
  'general-errors/malformed-json': { status: 422, error_code: 10002 },
  'general-errors/unknown-path': { status: 400, error_code: 10001 },
  'general-errors/wrong-method': { status: 404, error_code: 10001 },
};

/** The profile of every point, each entry with its catalogue question. */
export function everyPointProfile(): { kind: string; version: number; points: Record<string, unknown> } {
  const points = Object.fromEntries(
    Object.entries(everyPoint).map(([id, choice]) => [id, { question: id.split('/')[0], choice }]),
  );
  return { kind: 'voice-kit-profile', version: 1, points };
}
