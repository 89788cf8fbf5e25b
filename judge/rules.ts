/**
 * Every rule the judge applies, as data: a stable id (a verdict names it), the kind (`exchange`: one
 * answer alone; `request`: whether the deployment was right to accept or refuse the request; `session`:
 * what earlier exchanges established), the severity (`must` fails a run or a proxy session, `should` is
 * reported only) and the section of the service interface spec.
 */

export type Severity = 'must' | 'should';
export type RuleKind = 'exchange' | 'request' | 'session';

export interface Rule {
  readonly id: string;
  readonly kind: RuleKind;
  readonly severity: Severity;
  readonly section: string;
  readonly title: string;
}

const exchangeRules = {
  statusDocumented: {
    id: 'status.documented',
    kind: 'exchange',
    severity: 'must',
    section: '§4, §7',
    title: 'the HTTP status is one the contract documents for the operation, or one the spec leaves open',
  },
  contentType: {
    id: 'content-type.documented',
    kind: 'exchange',
    severity: 'must',
    section: '§2.1, §2.5',
    title: 'the Content-Type is one the contract documents for the operation and status',
  },
  envelope: {
    id: 'envelope.shape',
    kind: 'exchange',
    severity: 'must',
    section: '§2.1, §7',
    title: 'a JSON answer is the envelope, consistent with its status',
  },
  schema: {
    id: 'schema.response',
    kind: 'exchange',
    severity: 'must',
    section: '§2, §4',
    title: 'a JSON answer matches the schema documented for its status',
  },
  errorCode: {
    id: 'error-code.for-status',
    kind: 'exchange',
    severity: 'must',
    section: '§4.2, §5.5, §7.1',
    title: 'the error_code is the one the spec pairs with the status',
  },
  missingKey: {
    id: 'auth.missing-key',
    kind: 'exchange',
    severity: 'must',
    section: '§5.1, §5.5',
    title: 'a request without X-API-Key is answered 401',
  },
  pageSize: {
    id: 'list.page-size',
    kind: 'exchange',
    severity: 'must',
    section: '§4.3, §8',
    title: 'a list page holds at most page_size voices (default 20), and total counts this page',
  },
  uploadSize: {
    id: 'upload.size',
    kind: 'exchange',
    severity: 'must',
    section: '§2.2, §4.1',
    title: "the upload answer's size is the byte count of the uploaded file",
  },
  uploadName: {
    id: 'upload.file-name',
    kind: 'exchange',
    severity: 'should',
    section: '§2.2',
    title: "the upload answer's file_name is the original filename",
  },
  audioBody: {
    id: 'audio.body',
    kind: 'exchange',
    severity: 'must',
    section: '§2.5',
    title: 'the audio bytes are what the Content-Type says (WAV header and sizes, MPEG frames, PCM frames)',
  },
  pcmHeaders: {
    id: 'audio.pcm-headers',
    kind: 'exchange',
    severity: 'must',
    section: '§2.5',
    title: 'PCM output carries the sample rate, channel count and bit depth headers',
  },
  audioFormat: {
    id: 'audio.requested-format',
    kind: 'exchange',
    severity: 'should',
    section: '§2.4, §2.5',
    title: 'the audio is in the audio_format the request asked for',
  },
  streamChunked: {
    id: 'stream.chunked',
    kind: 'exchange',
    severity: 'must',
    section: '§4.6',
    title: 'a streamed answer uses chunked transfer, without Content-Length',
  },
  answerComplete: {
    id: 'answer.complete',
    kind: 'exchange',
    severity: 'must',
    section: '§2.1, §4.5, §4.6',
    title:
      'an answer that has begun ends whole: every byte its Content-Length promised, or the last chunk of a chunked one',
  },
  streamProgressive: {
    id: 'stream.progressive',
    kind: 'exchange',
    severity: 'must',
    section: '§4.6',
    title: 'a streamed answer delivers audio as it becomes ready, not as one lump at the end',
  },
} as const satisfies Record<string, Rule>;

const requestRules = {
  voiceId: {
    id: 'request.voice-id',
    kind: 'request',
    severity: 'must',
    section: '§2.3, §4.2',
    title:
      'a new voice_id is accepted when, trimmed and lowercased, it is 1 to 30 of a-z 0-9 _ -, and refused otherwise',
  },
  uploadForm: {
    id: 'request.upload-form',
    kind: 'request',
    severity: 'must',
    section: '§4.1, §7.1',
    title: 'an upload is refused unless its scene is audio and it carries one nonempty file',
  },
  fileExtension: {
    id: 'request.file-extension',
    kind: 'request',
    severity: 'must',
    section: '§4.1, §7.1',
    title:
      'a file named .wav, .mp3, .m4a, .webm or .ogg is not refused for its extension (20012), any other is refused',
  },
  speed: {
    id: 'request.speed',
    kind: 'request',
    severity: 'must',
    section: '§2.4, §7.3',
    title:
      'a negative speed is refused; 0 (the provider default) and positive speeds are not refused as invalid',
  },
  synthesis: {
    id: 'request.synthesis',
    kind: 'request',
    severity: 'must',
    section: '§2.4',
    title:
      'synthesis without text is refused; a valid request like one accepted before is not refused as invalid',
  },
} as const satisfies Record<string, Rule>;

/**
 * Session rules. The severity here is the one with a complete view (`completeView`); without it the
 * judge lowers the rules that need one to `should` (see session-rules.ts).
 */
const sessionRules = {
  savedSelectable: {
    id: 'session.saved-selectable',
    kind: 'session',
    severity: 'must',
    section: '§3, §4.2',
    title: 'a saved voice is selectable in synthesis at once, until it is deleted',
  },
  savedListed: {
    id: 'session.saved-listed',
    kind: 'session',
    severity: 'must',
    section: '§3, §4.3',
    title: 'a saved voice is listed until it is deleted (in a complete walk of the list)',
  },
  deletedGone: {
    id: 'session.deleted-gone',
    kind: 'session',
    severity: 'must',
    section: '§3, §4.4',
    title: 'a deleted voice is neither listed nor selectable',
  },
  uploadFree: {
    id: 'session.upload-free',
    kind: 'session',
    severity: 'must',
    section: '§4.1',
    title: 'an upload neither creates a voice nor uses a free clone',
  },
  freeUses: {
    id: 'session.free-uses',
    kind: 'session',
    severity: 'must',
    section: '§4.2 rule 3',
    title: 'a creation uses exactly one free use while any remain; a refused one uses none',
  },
  objectKeyScope: {
    id: 'session.object-key-scope',
    kind: 'session',
    severity: 'must',
    section: '§2.2, §4.2, §5.4',
    title: 'an object key is refused to keys of another organization, project space or environment',
  },
} as const satisfies Record<string, Rule>;

export const rules = { ...exchangeRules, ...requestRules, ...sessionRules } as const;

export type RuleName = keyof typeof rules;

/** Every rule, in the order the docs list them. */
export const allRules: readonly Rule[] = Object.values(rules);
