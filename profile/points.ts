/**
 * Every point a calibration profile can carry, as data: a point belongs to one `x-open-question` of the
 * description (several points may share one, as the six voice-creation statuses do), says what its
 * choice holds, and, for a refusal, which entry of the error catalogue (openapi/contract.ts) the mock
 * answers it with. The one list the schema, the parser, the recorders (suite and proxy) and the mock
 * read; docs/calibration.md shows it as a table.
 */
import type { ErrorName } from '../openapi/contract.js';

/** What a point's choice holds (types.ts has each shape). */
export type ChoiceShape =
  | 'refusal' // { status, error_code }
  | 'status' // { status }: the error_code is stated by the spec
  | 'data' // { data } with {voice_id} placeholders
  | 'delete-missing' // { status: 200 } or { status, error_code }
  | 'list-order'
  | 'pcm-headers'
  | 'default-format'
  | 'text-alias'
  | 'max-text-length'
  | 'retry-after'
  | 'duration-bounds';

export interface PointInfo {
  /** The `x-open-question` id. */
  readonly question: string;
  readonly shape: ChoiceShape;
  /** For refusals: the catalogue entry the mock answers with, its status and code replaced by the choice. */
  readonly error?: ErrorName;
  /** One line: what the point is about. */
  readonly about: string;
}

/**
 * The points, by id: the open question's id, or `question/aspect` where one question has several
 * independent answers.
 */
export const points = {
  'voice-save-statuses/10018': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'voiceIdTaken',
    about: 'status of a save whose voice ID exists or is reserved (10018)',
  },
  'voice-save-statuses/20010': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'refAudioTooLarge',
    about: 'status of a save whose reference audio is over 20 MiB (20010)',
  },
  'voice-save-statuses/20012': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'refAudioUnsupported',
    about: 'status of a save whose reference audio is unsupported, unreadable or corrupt (20012)',
  },
  'voice-save-statuses/20015': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'refAudioTooLong',
    about: 'status of a save whose reference audio is longer than 60 s (20015)',
  },
  'voice-save-statuses/20016': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'refAudioTooShort',
    about: 'status of a save whose reference audio is too short or has too little speech (20016)',
  },
  'voice-save-statuses/20017': {
    question: 'voice-save-statuses',
    shape: 'status',
    error: 'refAudioPauseTooLong',
    about: 'status of a save whose recording has a pause longer than allowed (20017)',
  },
  'voice-id-invalid-characters': {
    question: 'voice-id-invalid-characters',
    shape: 'refusal',
    error: 'voiceIdInvalid',
    about: 'a save whose voice ID is empty after trimming or has characters outside a-z 0-9 _ -',
  },
  'ref-audio-not-accessible': {
    question: 'ref-audio-not-accessible',
    shape: 'refusal',
    error: 'refAudioNotAccessible',
    about: "a save whose ref_audio is an unknown object key, another project's or environment's",
  },
  'voice-cloning-disabled-error': {
    question: 'voice-cloning-disabled-error',
    shape: 'refusal',
    error: 'voiceCloningDisabled',
    about: 'a save with a key without Voice Cloning',
  },
  'voice-save-data': {
    question: 'voice-save-data',
    shape: 'data',
    about: '`data` of a successful save',
  },
  'list-order': {
    question: 'list-order',
    shape: 'list-order',
    about: 'the order of the voice list',
  },
  'page-size-out-of-range': {
    question: 'page-size-out-of-range',
    shape: 'refusal',
    error: 'pageSizeOutOfRange',
    about: 'a list whose page_size is outside 1..20 or not an integer',
  },
  'list-errors/unknown-cursor': {
    question: 'list-errors',
    shape: 'refusal',
    error: 'invalidCursor',
    about: 'a list whose voice_id cursor no earlier answer returned',
  },
  'delete-response-body': {
    question: 'delete-response-body',
    shape: 'data',
    about: '`data` of a successful delete',
  },
  'delete-response-body/missing': {
    question: 'delete-response-body',
    shape: 'delete-missing',
    about: 'deleting a voice that is already missing: success, or a refusal',
  },
  'delete-refused-status': {
    question: 'delete-refused-status',
    shape: 'refusal',
    error: 'systemVoiceNotDeletable',
    about: 'deleting a system voice',
  },
  'pcm-header-names': {
    question: 'pcm-header-names',
    shape: 'pcm-headers',
    about: 'the names of the PCM sample rate, channels and bit depth headers',
  },
  'default-audio-format': {
    question: 'default-audio-format',
    shape: 'default-format',
    about: 'the format answered when audio_format is omitted, per endpoint',
  },
  'text-alias': {
    question: 'text-alias',
    shape: 'text-alias',
    about: 'whether `text` is accepted in place of generate_text',
  },
  'max-text-length': {
    question: 'max-text-length',
    shape: 'max-text-length',
    about: 'the longest generate_text accepted, in characters',
  },
  'max-text-length/refusal': {
    question: 'max-text-length',
    shape: 'refusal',
    error: 'textTooLong',
    about: 'a synthesis whose generate_text is longer than allowed',
  },
  'synthesis-errors/unknown-voice': {
    question: 'synthesis-errors',
    shape: 'refusal',
    error: 'unknownVoice',
    about: 'a synthesis naming a voice that does not exist',
  },
  'synthesis-errors/missing-text': {
    question: 'synthesis-errors',
    shape: 'refusal',
    error: 'textMissing',
    about: 'a synthesis without generate_text, or with an empty one',
  },
  'synthesis-errors/negative-speed': {
    question: 'synthesis-errors',
    shape: 'refusal',
    error: 'speedNegative',
    about: 'a synthesis with a negative speed',
  },
  'allowed-options/refusal': {
    question: 'allowed-options',
    shape: 'refusal',
    error: 'unsupportedOption',
    about: 'a synthesis with a language, emotion_class or audio_format not enabled',
  },
  'upload-retry-after': {
    question: 'upload-retry-after',
    shape: 'retry-after',
    about: 'whether an upload refused for its rate (429) carries Retry-After',
  },
  'reference-duration-boundaries': {
    question: 'reference-duration-boundaries',
    shape: 'duration-bounds',
    about: 'whether a reference of exactly 3 s and of exactly 60 s is accepted',
  },
  'general-errors/malformed-json': {
    question: 'general-errors',
    shape: 'refusal',
    error: 'invalidRequest',
    about: 'a JSON endpoint sent a body that is not JSON',
  },
  'general-errors/unknown-path': {
    question: 'general-errors',
    shape: 'refusal',
    error: 'routeNotFound',
    about: 'a path no endpoint has',
  },
  'general-errors/wrong-method': {
    question: 'general-errors',
    shape: 'refusal',
    error: 'methodNotAllowed',
    about: 'an endpoint asked with a method it does not take',
  },
} as const satisfies Record<string, PointInfo>;

export type PointId = keyof typeof points;

export const pointIds = Object.keys(points) as PointId[];

export const isPointId = (id: string): id is PointId => Object.hasOwn(points, id);

/** The placeholder a `data` choice writes where the answer held the request's voice id. */
export const voiceIdPlaceholder = '{voice_id}';
