/**
 * The exchange rules: what one answer shows on its own (status, Content-Type, envelope, schema, stated
 * error-code pairs, list pages, upload echo, audio framing, streams). Points the spec leaves open are
 * tolerated (open-points.ts): any 4xx with the envelope where an operation's refusal statuses are open.
 */
import { limits, normalizeVoiceId, type OperationId } from '../openapi/contract.js';
import { at, operations } from '../openapi/document-index.js';
import { documentedStatuses } from '../openapi/validate.js';
import { audioKindOf, pcmLayoutOf } from './audio.js';
import { envelopeProblems } from './envelope.js';
import { type ExchangeFacts, header, isObject, jsonObject, type KeptBody, mimeOf } from './exchange.js';
import { generalErrorStatuses, refusalStatusOpen } from './open-points.js';
import { pairingProblems, statedPairProblems } from './pairs.js';
import { type Rule, rules } from './rules.js';
import { schemaProblems } from './schema.js';

/** What the exchange rules need to know beyond the facts. */
export interface ExchangeRuleOptions {
  /** The PCM header names (§2.5 leaves them open); the kit's by default. */
  readonly pcmHeaders: { readonly sampleRate: string; readonly channels: string; readonly bitDepth: string };
  /**
   * A stream is one lump when its first byte waited at least `lumpWaitMs`, then the whole body came
   * within a tenth of that wait, or 2 % of the audio's duration (at least 20 ms), holding at least
   * `lumpMinSeconds` of audio. Only the wait tells a lump from a fast generator that started late: the
   * pieces an observer reads are not the upstream's writes, so their size proves nothing.
   */
  readonly lumpWaitMs: number;
  readonly lumpMinSeconds: number;
  /**
   * Hold the answer to the kit's own recorded choices where the spec leaves a status open (the mock
   * judging itself: its 422 for a save would be a bug of the mock). Off for any other deployment.
   */
  readonly ownChoices?: boolean;
  /** The request is not at hand (the mock's check of its own answer): rules about it are not applied. */
  readonly requestUnknown?: boolean;
  /**
   * With `ownChoices`: refusals a calibration profile made the mock's own (the deployment's status and
   * code for a point the spec leaves open). Such an answer is held to the envelope only.
   */
  readonly profileRefusals?: readonly ProfileRefusal[];
  /** With `ownChoices`: operations whose success `data` a calibration profile gives (not the kit's schema). */
  readonly profileData?: readonly OperationId[];
}

/** One refusal as a calibration profile says the deployment answers it. */
export interface ProfileRefusal {
  readonly operationId: OperationId;
  readonly status: number;
  readonly code: number;
}

/** Whether the answer is a refusal the profile names for this operation, with this status and code. */
function profileRefusal(facts: ExchangeFacts, opts: ExchangeRuleOptions): boolean {
  if (!opts.profileRefusals || facts.status < 400) return false;
  const code = jsonObject(facts.responseJson)?.error_code;
  return opts.profileRefusals.some(
    (r) => r.operationId === facts.operationId && r.status === facts.status && r.code === code,
  );
}

export type Add = (rule: Rule, seen: string) => void;

/** The envelope's own fields: a schema finding on one of them repeats what envelope.shape said. */
const envelopePointers = new Set(['', '/error_code', '/error_message', '/succeed', '/data']);
const envelopeOperations = new Set<OperationId>(['uploadFile', 'saveVoice', 'listVoices', 'deleteVoice']);

/** The media types the document lists for an operation's status (or its `default`). */
export function documentedMediaTypes(operationId: OperationId, status: number): string[] {
  const op = operations().get(operationId);
  const responses = op && at(op, 'responses');
  const response = responses && (at(responses, String(status)) ?? at(responses, 'default'));
  const content = response && at(response, 'content');
  return content ? Object.keys(content.node) : [];
}

/** Whether the save's voice_id is over 30 characters once normalized; undefined when not known. */
function tooLong(facts: ExchangeFacts): boolean | undefined {
  const id = jsonObject(facts.requestJson)?.voice_id;
  return typeof id === 'string' ? normalizeVoiceId(id).length > limits.voiceIdMaxLength.value : undefined;
}

const hasKey = (facts: ExchangeFacts) => {
  const v = facts.requestHeaders['x-api-key'];
  return (Array.isArray(v) ? v.join('') : (v ?? '')).trim() !== '';
};

/**
 * Every exchange rule the answer breaks; `add` joins the problems of one rule into one verdict.
 *
 * @example judgeExchange(facts, defaultExchangeOptions, (rule, seen) => out.push({ rule, seen }));
 */
export function judgeExchange(facts: ExchangeFacts, opts: ExchangeRuleOptions, add: Add): void {
  const op = facts.operationId;
  const { status } = facts;
  const keyMissing = !opts.requestUnknown && !hasKey(facts) && status !== 401;
  if (keyMissing) {
    add(
      rules.missingKey,
      `a request without X-API-Key was answered HTTP ${status}; §5.5 asks for 401 (error_code 10003)`,
    );
  }
  if (profileRefusal(facts, opts)) {
    judgeProfileRefusal(facts, add);
    return;
  }
  const documented = documentedStatuses(op);
  if (!documented.includes(status)) {
    if (generalErrorStatuses.has(status) && op !== 'uploadFile') return;
    // A refusal whose status the spec leaves open: the envelope and the stated pairs still hold.
    if (status >= 400 && status < 500 && refusalStatusOpen(op) && !opts.ownChoices) {
      judgeOpenRefusal(facts, add);
      return;
    }
    if (!keyMissing) add(rules.statusDocumented, `HTTP ${status}; ${op} documents ${documented.join(', ')}`);
    return;
  }
  const contentType = header(facts.responseHeaders, 'content-type');
  const media = documentedMediaTypes(op, status);
  const audioAnswer = !envelopeOperations.has(op) && status >= 200 && status < 300;
  if (
    media.length > 0 &&
    !media.includes(mimeOf(contentType)) &&
    !(audioAnswer && audioKindOf(contentType))
  ) {
    add(
      rules.contentType,
      `Content-Type ${JSON.stringify(contentType ?? '')} on HTTP ${status}; documented: ${media.join(', ')}`,
    );
  }
  if (audioAnswer) judgeAudio(facts, opts, add);
  else judgeJson(facts, opts, add);
}

/** A 4xx the spec allows without documenting it (422 for 20016 at save, 404 for a missing delete). */
function judgeOpenRefusal(facts: ExchangeFacts, add: Add): void {
  const contentType = header(facts.responseHeaders, 'content-type');
  if (!/json/i.test(mimeOf(contentType))) {
    add(
      rules.contentType,
      `Content-Type ${JSON.stringify(contentType ?? '')} on HTTP ${facts.status}; the envelope of §2.1 is JSON`,
    );
  }
  const body = facts.responseJson;
  if (body.kind === 'too-large') return;
  if (body.kind !== 'json') {
    add(rules.envelope, notJson(body));
    return;
  }
  for (const p of envelopeProblems(body.value, facts.status, { dataMayBeNull: true })) add(rules.envelope, p);
  const code = jsonObject(body)?.error_code;
  for (const p of statedPairProblems(facts.operationId, facts.status, code, {
    uploadPairsFound: false,
    tooLong: tooLong(facts),
  }))
    add(rules.errorCode, p);
}

/** A refusal answered as a calibration profile says: the §2.1 envelope, JSON, data null. */
function judgeProfileRefusal(facts: ExchangeFacts, add: Add): void {
  const contentType = header(facts.responseHeaders, 'content-type');
  if (!/json/i.test(mimeOf(contentType)))
    add(
      rules.contentType,
      `Content-Type ${JSON.stringify(contentType ?? '')} on HTTP ${facts.status}; the envelope of §2.1 is JSON`,
    );
  const body = facts.responseJson;
  if (body.kind === 'json')
    for (const p of envelopeProblems(body.value, facts.status, { dataMayBeNull: true }))
      add(rules.envelope, p);
}

/** What an answer that should have been the §2.1 envelope was instead. */
function notJson(body: Exclude<KeptBody, { kind: 'json' | 'too-large' }>): string {
  return body.kind === 'not-json'
    ? `the body is not JSON (${body.error})`
    : 'the body is empty; the envelope of §2.1 was expected';
}

function judgeJson(facts: ExchangeFacts, opts: ExchangeRuleOptions, add: Add): void {
  const op = facts.operationId;
  const { status } = facts;
  const body = facts.responseJson;
  if (body.kind === 'too-large') return; // noted on the exchange: not validated
  if (body.kind !== 'json') {
    add(rules.envelope, notJson(body));
    return;
  }
  const json = body.value;
  // `data` as a calibration profile says the deployment answers it: the envelope holds, not the kit's schema.
  const profileData = status === 200 && (opts.profileData?.includes(op) ?? false);
  const envelopeFound = envelopeProblems(json, status, {
    dataMayBeNull: op === 'deleteVoice' || op === 'saveVoice',
  });
  for (const p of envelopeFound) add(rules.envelope, p);
  if (!isObject(json)) return;
  const code = json.error_code;
  const pairing = pairingProblems(op, status, code);
  for (const p of pairing) add(rules.errorCode, p);
  for (const p of statedPairProblems(op, status, code, {
    uploadPairsFound: pairing.length > 0,
    tooLong: tooLong(facts),
  }))
    add(rules.errorCode, p);
  const pageSizeFound = judgeListPage(facts, json, add);
  for (const p of schemaProblems(op, status, json).problems) {
    if (envelopeFound.length > 0 && envelopePointers.has(p.pointer)) continue;
    if (profileData && (p.pointer === '/data' || p.pointer.startsWith('/data/'))) continue;
    if (pageSizeFound.includes(p.pointer)) continue;
    add(rules.schema, `${p.pointer || '/'} ${p.message}`);
  }
  const data = status === 200 && isObject(json.data) ? json.data : undefined;
  if (data && op === 'uploadFile') judgeUploadEcho(facts, data, add);
}

/** list.page-size; returns the schema pointers its verdict already covers. */
function judgeListPage(facts: ExchangeFacts, json: Record<string, unknown>, add: Add): string[] {
  const data = facts.status === 200 && isObject(json.data) ? json.data : undefined;
  if (!data || facts.operationId !== 'listVoices' || !Array.isArray(data.list)) return [];
  const found: string[] = [];
  const asked = Number(facts.query.page_size);
  const pageSize =
    Number.isInteger(asked) && asked >= limits.pageSizeMin.value && asked <= limits.pageSizeMax.value
      ? asked
      : limits.pageSizeDefault.value;
  if (data.list.length > pageSize) {
    found.push('/data/list', '/data/total'); // a total over 20 follows from the long page
    add(
      rules.pageSize,
      `${data.list.length} voices in a page of page_size ${pageSize}${facts.query.page_size === undefined ? ' (the default)' : ''}`,
    );
  }
  if (typeof data.total === 'number' && data.total !== data.list.length) {
    found.push('/data/total');
    add(
      rules.pageSize,
      `total is ${data.total} for a page of ${data.list.length} voices; §4.3: the number of voices returned in this page`,
    );
  }
  return found;
}

function judgeUploadEcho(facts: ExchangeFacts, data: Record<string, unknown>, add: Add): void {
  if (!facts.form || facts.form.error) return;
  const files = facts.form.parts.filter((p) => p.name === 'file');
  const file = files.length === 1 ? files[0] : undefined;
  if (file && typeof data.size === 'number' && data.size !== file.bytes)
    add(rules.uploadSize, `size is ${data.size}; the uploaded file has ${file.bytes} bytes`);
  if (file?.filename !== undefined && typeof data.file_name === 'string' && data.file_name !== file.filename)
    add(
      rules.uploadName,
      `file_name is ${JSON.stringify(data.file_name)}; the upload named ${JSON.stringify(file.filename)}`,
    );
}

function judgeAudio(facts: ExchangeFacts, opts: ExchangeRuleOptions, add: Add): void {
  const contentType = header(facts.responseHeaders, 'content-type');
  const kind = audioKindOf(contentType);
  const audio = facts.audio;
  if (kind === 'pcm')
    for (const p of pcmLayoutOf(facts.responseHeaders, opts.pcmHeaders).problems) add(rules.pcmHeaders, p);
  if (audio) for (const p of audio.problems) add(rules.audioBody, `${audio.kind.toUpperCase()}: ${p}`);
  const json = jsonObject(facts.requestJson);
  const asked = typeof json?.audio_format === 'string' ? json.audio_format.toLowerCase() : undefined;
  if (kind && (asked === 'wav' || asked === 'mp3' || asked === 'pcm') && asked !== kind)
    add(
      rules.audioFormat,
      `audio_format "${asked}" was asked for; the answer is ${JSON.stringify(contentType)}`,
    );
  if (facts.operationId === 'streamSpeech') judgeStream(facts, opts, add);
}

function judgeStream(facts: ExchangeFacts, opts: ExchangeRuleOptions, add: Add): void {
  const length = header(facts.responseHeaders, 'content-length');
  if (length !== undefined) {
    // A body whose length was known up front was whole before it was sent: the one violation says it.
    add(rules.streamChunked, `the stream carries Content-Length: ${length}`);
    return;
  }
  const prefer = header(facts.requestHeaders, 'prefer') ?? '';
  const { waitMs, spanMs, chunks } = facts.timing;
  const seconds = facts.audio?.seconds;
  if (seconds === undefined || /latency=|fault=/i.test(prefer)) return;
  const lumpSpan = Math.max(20, waitMs / 10, seconds * 1000 * 0.02);
  if (waitMs >= opts.lumpWaitMs && spanMs <= lumpSpan && seconds >= opts.lumpMinSeconds) {
    add(
      rules.streamProgressive,
      `${seconds.toFixed(2)} s of audio (${facts.audio?.bytes} bytes) arrived as one lump: nothing for ${Math.round(waitMs)} ms, then all of it within ${Math.round(spanMs)} ms (${chunks} chunk(s))`,
    );
  }
}
