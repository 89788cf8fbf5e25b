/**
 * The contract as data: every documented limit, every error the kit can answer with, and every point
 * the spec leaves open. The mock and the conformance suite import these declarations; nobody else
 * writes an error code or a limit as a bare literal. `contract.test.ts` checks this module against
 * `voice-service.yaml`, so the two cannot drift.
 *
 * Section references (`§7.1`) name sections of the service interface spec; docs/spec-sections.md
 * lists every section with its rules and where the kit keeps them.
 *
 * @example
 * import { errors, limits } from 'voice-kit/contract';
 * if (res.status === errors.fileTooLarge.status) console.log(limits.uploadMaxBytes);
 */

/** The six operations of spec §4, by their OpenAPI operationId. */
export const operationIds = [
  'uploadFile',
  'saveVoice',
  'listVoices',
  'deleteVoice',
  'synthesizeSpeech',
  'streamSpeech',
] as const;
export type OperationId = (typeof operationIds)[number];

/** One documented limit. `section` cites the spec. */
export interface Limit {
  readonly value: number;
  readonly unit: 'bytes' | 'seconds' | 'characters' | 'items' | 'requests';
  readonly section: string;
  readonly appliesTo: readonly OperationId[];
  readonly description: string;
}

/** Every limit of spec §8 (and the few numeric rules of §2 and §4 that are limits in all but name). */
export const limits = {
  uploadMaxBytes: {
    value: 52_428_800,
    unit: 'bytes',
    section: '§4.1, §8',
    appliesTo: ['uploadFile'],
    description: 'Upload file size: at most 50 MiB; exactly 52,428,800 bytes is accepted.',
  },
  uploadRatePerHour: {
    value: 30,
    unit: 'requests',
    section: '§8',
    appliesTo: ['uploadFile'],
    description:
      'Upload rate: 30 uploads per user per hour, shared across that user’s project keys (default).',
  },
  uploadRateWindowSeconds: {
    value: 3600,
    unit: 'seconds',
    section: '§8',
    appliesTo: ['uploadFile'],
    description: 'The window of the upload rate limit: one hour.',
  },
  referenceMaxBytes: {
    value: 20_971_520,
    unit: 'bytes',
    section: '§4.2, §8',
    appliesTo: ['saveVoice'],
    description: 'Reference audio size: at most 20 MiB (20,971,520 bytes).',
  },
  referenceMinSeconds: {
    value: 3,
    unit: 'seconds',
    section: '§1, §4.2, §8',
    appliesTo: ['saveVoice'],
    description: 'Reference audio duration: at least 3 seconds (3.0 s is accepted).',
  },
  referenceMaxSeconds: {
    value: 60,
    unit: 'seconds',
    section: '§1, §4.2, §8',
    appliesTo: ['saveVoice'],
    description: 'Reference audio duration: at most 60 seconds (60.0 s is accepted).',
  },
  voiceIdMinLength: {
    value: 1,
    unit: 'characters',
    section: '§2.3, §8',
    appliesTo: ['saveVoice'],
    description: 'New voice ID length after trimming and lowercasing: at least 1 character.',
  },
  voiceIdMaxLength: {
    value: 30,
    unit: 'characters',
    section: '§2.3, §4.2, §8',
    appliesTo: ['saveVoice'],
    description: 'New voice ID length after trimming and lowercasing: at most 30 characters.',
  },
  pageSizeMin: {
    value: 1,
    unit: 'items',
    section: '§4.3, §8',
    appliesTo: ['listVoices'],
    description: 'List page size: at least 1.',
  },
  pageSizeMax: {
    value: 20,
    unit: 'items',
    section: '§4.3, §8',
    appliesTo: ['listVoices'],
    description: 'List page size: at most 20.',
  },
  pageSizeDefault: {
    value: 20,
    unit: 'items',
    section: '§4.3, §8',
    appliesTo: ['listVoices'],
    description: 'List page size when page_size is omitted: 20.',
  },
} as const satisfies Record<string, Limit>;
export type LimitName = keyof typeof limits;

/** Upload form rules of §4.1. Extensions are compared case-insensitively, without the dot. */
export const upload = {
  scenes: ['audio'],
  allowedExtensions: ['wav', 'mp3', 'm4a', 'webm', 'ogg'],
  /** Named by the spec as refused; every other extension is refused too. */
  refusedExtensions: ['flac', 'aac', 'opus'],
  fileField: 'file',
  sceneField: 'scene',
} as const;

/** Voice ID rules of §2.3: normalize (trim, lowercase), then 1–30 of a-z 0-9 _ -. */
export const voiceId = {
  /** Applied to the normalized ID of a new voice. */
  pattern: '^[a-z0-9_-]{1,30}$',
  alphabet: 'a-z 0-9 _ -',
} as const;

/** §2.3: trim leading and trailing whitespace, then lowercase. */
export function normalizeVoiceId(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Synthesis rules of §2.4 that are numbers. */
export const synthesis = {
  /** `speed` omitted or 0 means the provider default; a negative value is rejected. */
  speedMinimum: 0,
  /** The JSON field named in the synthesis reference (§2.4). */
  textField: 'generate_text',
  /** The field name the voice-creation flow shows; alias status is open (`text-alias`). */
  textAliasField: 'text',
} as const;

/**
 * Output formats the kit serves, with the Content-Type of each (§2.5). Which formats a real
 * deployment enables is open (`allowed-options`).
 */
export const audioMediaTypes = {
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  mp3: 'audio/mpeg',
} as const;
export type AudioFormat = keyof typeof audioMediaTypes;

/**
 * PCM response headers (§2.5). The spec says they exist but does not name them (`pcm-header-names`):
 * these names are the kit's choice, and the mock lets a config rename them.
 */
export const pcmHeaders = {
  sampleRate: 'X-Audio-Sample-Rate',
  channels: 'X-Audio-Channels',
  bitDepth: 'X-Audio-Bit-Depth',
} as const;

/** The API-key header of §5. */
export const apiKeyHeader = 'X-API-Key';

/** The header a mock answer carries when it is right by the spec but probably not what the client meant. */
export const mockWarningHeader = 'X-Mock-Warning';

/** Where an error entry comes from: stated by the spec, or chosen by the kit where the spec is silent. */
export type ErrorSource = 'spec' | 'kit';

export interface ErrorEntry {
  readonly code: number;
  readonly status: number;
  readonly condition: string;
  readonly section: string;
  readonly operations: readonly OperationId[];
  /** `spec`: code and status are stated. `kit`: the spec leaves the code or the status open. */
  readonly source: ErrorSource;
  /** The `x-open-question` id this entry answers, when `source` is `kit`. */
  readonly openQuestion?: string;
  /** A realistic error_message, used for OpenAPI examples and default mock messages. */
  readonly message: string;
}

const allOperations = operationIds;

/**
 * The error catalogue. One entry per distinct condition; a code may appear in several entries
 * (10001 covers many invalid requests). `source: 'kit'` marks a status or code the spec does not
 * show: the mock answers with it and the conformance suite only observes it.
 */
export const errors = {
  // §7.1 Upload: every status and code is stated.
  missingApiKey: {
    code: 10003,
    status: 401,
    condition: 'API key missing or invalid',
    section: '§5.5, §7.1',
    operations: allOperations,
    source: 'spec',
    message: 'X-API-Key header is missing or the API key is invalid',
  },
  invalidUpload: {
    code: 10001,
    status: 400,
    condition: 'invalid multipart request, missing or empty file, or unsupported scene',
    section: '§7.1',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'invalid multipart request: form field "file" is missing or empty',
  },
  unsupportedExtension: {
    code: 20012,
    status: 400,
    condition: 'unsupported filename extension',
    section: '§4.1, §7.1',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'unsupported file extension ".flac": allowed are .wav, .mp3, .m4a, .webm, .ogg',
  },
  fileTooLarge: {
    code: 20010,
    status: 413,
    condition: 'file larger than 50 MiB',
    section: '§7.1, §8',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'file is larger than 52428800 bytes (50 MiB)',
  },
  uploadRateLimited: {
    code: 10005,
    status: 429,
    condition: 'upload limit reached',
    section: '§7.1, §8',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'upload limit reached: 30 uploads per user per hour; retry in 3597 s',
  },
  uploadTimeout: {
    code: 10006,
    status: 504,
    condition: 'upload timed out',
    section: '§7.1',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'upload timed out',
  },
  storageUnavailable: {
    code: 20002,
    status: 503,
    condition: 'storage temporarily unavailable',
    section: '§7.1',
    operations: ['uploadFile'],
    source: 'spec',
    message: 'storage temporarily unavailable, retry later',
  },
  unexpected: {
    code: 10000,
    status: 500,
    condition: 'unexpected service error',
    section: '§7.1',
    operations: allOperations,
    source: 'spec',
    message: 'unexpected service error',
  },

  // §4.2 and §7.2 Voice creation: codes are stated; only 10001's status is.
  voiceIdTooLong: {
    code: 10001,
    status: 400,
    condition: 'voice ID longer than 30 characters after normalization',
    section: '§4.2 rule 1, §7.2',
    operations: ['saveVoice'],
    source: 'spec',
    message: 'voice_id is longer than 30 characters after trimming and lowercasing',
  },
  voiceIdInvalid: {
    code: 10001,
    status: 400,
    condition: 'voice ID empty after trimming, or with characters outside a-z 0-9 _ -',
    section: '§2.3',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-id-invalid-characters',
    message: 'voice_id may only contain a-z, 0-9, "_" and "-" after trimming and lowercasing',
  },
  voiceIdTaken: {
    code: 10018,
    status: 409,
    condition: 'voice ID already exists or is reserved',
    section: '§4.2 rule 2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'voice_id "narrator" already exists or is reserved',
  },
  refAudioTooLarge: {
    code: 20010,
    status: 413,
    condition: 'reference audio larger than 20 MiB',
    section: '§4.2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'reference audio is larger than 20971520 bytes (20 MiB)',
  },
  refAudioUnsupported: {
    code: 20012,
    status: 400,
    condition: 'reference audio format unsupported, unreadable, corrupt, or without an audio stream',
    section: '§4.2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'reference audio is not a readable WAV, MP3, M4A, WebM or OGG file',
  },
  refAudioTooLong: {
    code: 20015,
    status: 400,
    condition: 'reference audio longer than 60 seconds',
    section: '§4.2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'reference audio is 60.5 s long; at most 60 s is allowed',
  },
  refAudioTooShort: {
    code: 20016,
    status: 400,
    condition: 'reference audio shorter than 3 seconds or with insufficient usable speech',
    section: '§4.2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'reference audio is 2.9 s long; at least 3 s of clear speech is required',
  },
  refAudioPauseTooLong: {
    code: 20017,
    status: 400,
    condition: 'recording contains a pause longer than allowed',
    section: '§4.2, §7.2',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-save-statuses',
    message: 'reference audio contains a pause of 8.0 s; at most 5 s is allowed',
  },
  refAudioNotAccessible: {
    code: 20012,
    status: 400,
    condition:
      'ref_audio is an object key of another project space, environment or organization, an unknown key, or a URL that cannot be fetched',
    section: '§2.2, §4.2, §5.4',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'ref-audio-not-accessible',
    message: 'ref_audio cannot be read: unknown object key for this project space and environment',
  },
  voiceCloningDisabled: {
    code: 10003,
    status: 403,
    condition: 'the API key does not have Voice Cloning enabled',
    section: '§4.2, §5.3',
    operations: ['saveVoice'],
    source: 'kit',
    openQuestion: 'voice-cloning-disabled-error',
    message: 'this API key does not have Voice Cloning enabled',
  },

  // §4.3 List: no errors are shown.
  pageSizeOutOfRange: {
    code: 10001,
    status: 400,
    condition: 'page_size outside 1 to 20, or not an integer',
    section: '§4.3',
    operations: ['listVoices'],
    source: 'kit',
    openQuestion: 'page-size-out-of-range',
    message: 'page_size must be an integer from 1 to 20',
  },
  invalidCursor: {
    code: 10001,
    status: 400,
    condition: 'voice_id cursor that no preceding response returned',
    section: '§4.3',
    operations: ['listVoices'],
    source: 'kit',
    openQuestion: 'list-errors',
    message: 'voice_id is not a cursor returned by a preceding list response',
  },

  // §4.4 Delete: the status of a refused deletion is not shown.
  systemVoiceNotDeletable: {
    code: 10001,
    status: 403,
    condition: 'the voice is a system voice, which is never removed',
    section: '§2.3, §4.4',
    operations: ['deleteVoice'],
    source: 'kit',
    openQuestion: 'delete-refused-status',
    message: 'system_default is a system voice and cannot be deleted',
  },

  // §2.4 and §7.3 Synthesis: a negative speed is rejected; nothing else is shown.
  speedNegative: {
    code: 10001,
    status: 400,
    condition: 'speed is negative',
    section: '§2.4, §7.3',
    operations: ['synthesizeSpeech', 'streamSpeech'],
    source: 'kit',
    openQuestion: 'synthesis-errors',
    message: 'speed must be 0 (provider default) or a positive number',
  },
  textMissing: {
    code: 10001,
    status: 400,
    condition: 'generate_text missing or empty',
    section: '§2.4',
    operations: ['synthesizeSpeech', 'streamSpeech'],
    source: 'kit',
    openQuestion: 'synthesis-errors',
    message: 'generate_text is required',
  },
  textTooLong: {
    code: 10001,
    status: 400,
    condition: 'generate_text longer than the maximum text length',
    section: '§8',
    operations: ['synthesizeSpeech', 'streamSpeech'],
    source: 'kit',
    openQuestion: 'max-text-length',
    message: 'generate_text is longer than 10000 characters',
  },
  unknownVoice: {
    code: 10001,
    status: 400,
    condition: 'voice_id is neither a system voice nor a custom voice available to the project',
    section: '§2.4',
    operations: ['synthesizeSpeech', 'streamSpeech'],
    source: 'kit',
    openQuestion: 'synthesis-errors',
    message: 'voice_id "narrator" is not available to this project',
  },
  unsupportedOption: {
    code: 10001,
    status: 400,
    condition: 'language, emotion_class or audio_format not enabled for the caller',
    section: '§2.4',
    operations: ['synthesizeSpeech', 'streamSpeech'],
    source: 'kit',
    openQuestion: 'allowed-options',
    message: 'audio_format "flac" is not enabled; enabled are wav, pcm, mp3',
  },

  // Any operation: request shapes the spec forbids or does not describe.
  invalidRequest: {
    code: 10001,
    status: 400,
    condition: 'malformed JSON, wrong Content-Type, or a body or query the OpenAPI description forbids',
    section: '§4',
    operations: allOperations,
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'request body is not valid JSON',
  },
  routeNotFound: {
    code: 10001,
    status: 404,
    condition: 'no operation of the interface has this path',
    section: '§4, §9',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'no operation at GET /v1/voices; see the interface description',
  },
  methodNotAllowed: {
    code: 10001,
    status: 405,
    condition: 'the path exists but not with this HTTP method',
    section: '§4',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'method PUT is not allowed on /v1/voice/list; allowed: DELETE, GET',
  },
  headersTooLarge: {
    code: 10001,
    status: 431,
    condition: 'the request head is larger than the server reads (Node refuses it before routing)',
    section: '§4',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'request headers are too large',
  },
  bodyStalled: {
    code: 10001,
    status: 408,
    condition: 'the request body stopped arriving: no byte for the body timeout (30 s by default)',
    section: '§4',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'the request body stalled: no data for 30 s',
  },
  controlRefused: {
    code: 10003,
    status: 403,
    condition:
      "a control-API request (/__mock/) from another site's page (a foreign Origin) or through a Host that is not the mock's address (DNS rebinding)",
    section: '§5',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'the control API answers only the mock itself: this request comes from another origin',
  },
  controlTokenMissing: {
    code: 10003,
    status: 401,
    condition: 'a control-API request without the control token, on a mock that listens beyond loopback',
    section: '§5',
    operations: [],
    source: 'kit',
    openQuestion: 'general-errors',
    message: 'this mock listens beyond loopback: the control API needs the X-Mock-Control-Token header',
  },
  signedUrlInvalid: {
    code: 10003,
    status: 403,
    condition: 'a voice_url whose signature is wrong or whose lifetime has passed',
    section: '§2.3',
    operations: ['listVoices'],
    source: 'kit',
    openQuestion: 'voice-url-lifetime',
    message: 'the signed voice_url is invalid or has expired',
  },
} as const satisfies Record<string, ErrorEntry>;
export type ErrorName = keyof typeof errors;

/** Every error_code the spec documents (§7), with the section that lists it. */
export const documentedErrorCodes = {
  10000: '§7.1',
  10001: '§7.1, §7.2',
  10003: '§5.5, §7.1',
  10005: '§7.1',
  10006: '§7.1',
  10018: '§7.2',
  20002: '§7.1',
  20010: '§7.1, §7.2',
  20012: '§7.1, §7.2',
  20015: '§7.2',
  20016: '§7.2',
  20017: '§7.2',
} as const;
export type DocumentedErrorCode = keyof typeof documentedErrorCodes;

/** How the audio engine's verdict on a reference recording maps to the catalogue (§4.2, §7.2). */
export const referenceVerdicts = {
  unsupported: 'refAudioUnsupported',
  'too-large': 'refAudioTooLarge',
  'too-long': 'refAudioTooLong',
  'too-short': 'refAudioTooShort',
  'insufficient-speech': 'refAudioTooShort',
  'pause-too-long': 'refAudioPauseTooLong',
} as const satisfies Record<string, ErrorName>;
export type ReferenceVerdict = keyof typeof referenceVerdicts;

/** A point the spec leaves open ("not shown"), recorded in the YAML as `x-open-question`. */
export interface OpenQuestion {
  readonly id: string;
  readonly section: string;
  readonly question: string;
  /** What the kit's mock does, documented in the "Where the spec is silent" table of docs/spec-silent.md. */
  readonly mock: string;
}
