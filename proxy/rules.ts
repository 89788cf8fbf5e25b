/**
 * The contract rules the proxy judges, one entry each: a stable id (a violation names it), the severity
 * (`must` fails the session, `should` is reported only) and the section of the service interface spec.
 */

export type Severity = 'must' | 'should';

export interface Rule {
  readonly id: string;
  readonly severity: Severity;
  readonly section: string;
  readonly title: string;
}

export const rules = {
  statusDocumented: {
    id: 'status.documented',
    severity: 'must',
    section: '§4, §7',
    title: 'the HTTP status is one the contract documents for the operation',
  },
  contentType: {
    id: 'content-type.documented',
    severity: 'must',
    section: '§2.1, §2.5',
    title: 'the Content-Type is one the contract documents for the operation and status',
  },
  envelope: {
    id: 'envelope.shape',
    severity: 'must',
    section: '§2.1, §7',
    title: 'a JSON answer is the envelope, consistent with its status',
  },
  schema: {
    id: 'schema.response',
    severity: 'must',
    section: '§2, §4',
    title: 'a JSON answer matches the schema documented for its status',
  },
  errorCode: {
    id: 'error-code.for-status',
    severity: 'must',
    section: '§4.2, §5.5, §7.1',
    title: 'the error_code is the one the spec pairs with the status',
  },
  missingKey: {
    id: 'auth.missing-key',
    severity: 'must',
    section: '§5.1, §5.5',
    title: 'a request without X-API-Key is answered 401',
  },
  pageSize: {
    id: 'list.page-size',
    severity: 'must',
    section: '§4.3, §8',
    title: 'a list page holds at most page_size voices (default 20), and total counts this page',
  },
  uploadSize: {
    id: 'upload.size',
    severity: 'must',
    section: '§2.2, §4.1',
    title: "the upload answer's size is the byte count of the uploaded file",
  },
  uploadName: {
    id: 'upload.file-name',
    severity: 'should',
    section: '§2.2',
    title: "the upload answer's file_name is the original filename",
  },
  audioBody: {
    id: 'audio.body',
    severity: 'must',
    section: '§2.5',
    title: 'the audio bytes are what the Content-Type says (WAV header and sizes, MPEG frames, PCM frames)',
  },
  pcmHeaders: {
    id: 'audio.pcm-headers',
    severity: 'must',
    section: '§2.5',
    title: 'PCM output carries the sample rate, channel count and bit depth headers',
  },
  audioFormat: {
    id: 'audio.requested-format',
    severity: 'should',
    section: '§2.4, §2.5',
    title: 'the audio is in the audio_format the request asked for',
  },
  streamChunked: {
    id: 'stream.chunked',
    severity: 'must',
    section: '§4.6',
    title: 'a streamed answer uses chunked transfer, without Content-Length',
  },
  answerComplete: {
    id: 'answer.complete',
    severity: 'must',
    section: '§2.1, §4.5, §4.6',
    title: 'an answer that has begun ends whole: every byte its Content-Length promised, or the last chunk of a chunked one',
  },
  streamProgressive: {
    id: 'stream.progressive',
    severity: 'must',
    section: '§4.6',
    title: 'a streamed answer delivers audio as it becomes ready, not as one lump at the end',
  },
} as const satisfies Record<string, Rule>;

export type RuleName = keyof typeof rules;
