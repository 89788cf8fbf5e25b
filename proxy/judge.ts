/**
 * The contract rules one exchange shows, as a pure function: the facts the observers gathered in, the
 * violations out. Requests are the client's business: a request outside the contract is noted on the
 * exchange, never a violation; only the upstream's answer to it is judged.
 */
import { envelopeProblems, isObject } from '../conformance/checks/envelope.js';
import { pairingProblems } from '../conformance/checks/documented-pairs.js';
import { schemaProblems } from '../conformance/checks/schema.js';
import { errors, limits, type OperationId, pcmHeaders } from '../openapi/contract.js';
import { at, operations } from '../openapi/document-index.js';
import { documentedStatuses } from '../openapi/validate.js';
import type { AudioKind, AudioSummary, PcmLayout } from './audio-watch.js';
import type { FormCount } from './multipart-count.js';
import { type Rule, rules } from './rules.js';

/** A body as the proxy kept it: parsed JSON, or why not. */
export type KeptBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'not-json'; readonly error: string }
  | { readonly kind: 'too-large'; readonly bytes: number };

/** What the observers saw of one complete exchange. */
export interface ExchangeFacts {
  readonly operationId: OperationId;
  readonly query: Readonly<Record<string, string>>;
  readonly requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  readonly requestJson: KeptBody;
  readonly form: FormCount | undefined;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string | string[] | undefined>>;
  readonly responseJson: KeptBody;
  readonly audio: AudioSummary | undefined;
  /** Request end → first body byte, first → last body byte, number of body chunks. */
  readonly timing: { readonly waitMs: number; readonly spanMs: number; readonly chunks: number };
}

/** What the judge needs to know beyond the facts. */
export interface JudgeOptions {
  /** The PCM header names (§2.5 leaves them open); the kit's by default. */
  readonly pcmHeaders: { readonly sampleRate: string; readonly channels: string; readonly bitDepth: string };
  /**
   * A stream is one lump when its first byte waited at least `lumpWaitMs`, then the whole body came
   * within a tenth of that wait, or 2 % of the audio's duration (at least 20 ms), holding at least
   * `lumpMinSeconds` of audio. Only the wait tells a lump from a fast generator that started late (the
   * kit's mock on a cold start under load sends its 100 ms chunks ~500 ms late, then all at once): the
   * pieces the proxy reads are not the upstream's writes (the kernel and Node join them), so their size
   * proves nothing, and a test that leaned on it failed on Node 26. Hence a wait of a second.
   */
  readonly lumpWaitMs: number;
  readonly lumpMinSeconds: number;
}

export const defaultJudgeOptions: JudgeOptions = {
  pcmHeaders,
  lumpWaitMs: 1000,
  lumpMinSeconds: 0.5,
};

/** One broken rule and what was seen. */
export interface Finding {
  readonly rule: Rule;
  readonly seen: string;
}

/**
 * Statuses of the general errors §7.3 leaves unshown outside upload (rate limit, gateway and timeout
 * faults): answered by an operation that does not document them, they are noted, not violations.
 */
const generalErrorStatuses = new Set([429, 502, 503, 504]);

/** The envelope's own fields: a schema finding on one of them repeats what envelope.shape said. */
const envelopePointers = new Set(['', '/error_code', '/error_message', '/succeed', '/data']);

const envelopeOperations = new Set<OperationId>(['uploadFile', 'saveVoice', 'listVoices', 'deleteVoice']);

const header = (h: ExchangeFacts['responseHeaders'], name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The media types the document lists for an operation's status (or its `default`). */
export function documentedMediaTypes(operationId: OperationId, status: number): string[] {
  const op = operations().get(operationId);
  const responses = op && at(op, 'responses');
  const response = responses && (at(responses, String(status)) ?? at(responses, 'default'));
  const content = response && at(response, 'content');
  return content ? Object.keys(content.node) : [];
}

const mimeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The audio kind a Content-Type claims (the MIME aliases a provider may use), or undefined. */
export function audioKindOf(contentType: string | undefined): AudioKind | undefined {
  const mime = mimeOf(contentType);
  if (['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'].includes(mime)) return 'wav';
  if (['audio/mpeg', 'audio/mp3', 'audio/mpeg3'].includes(mime)) return 'mp3';
  if (['audio/pcm', 'audio/l16', 'audio/l24', 'audio/l8', 'audio/raw', 'audio/x-raw'].includes(mime)) return 'pcm';
  return undefined;
}

/** The PCM layout the answer's headers state, or what is wrong with them. */
export function pcmLayoutOf(
  headers: ExchangeFacts['responseHeaders'],
  names: JudgeOptions['pcmHeaders'],
): { layout: PcmLayout | undefined; problems: string[] } {
  const problems: string[] = [];
  const read = (name: string) => {
    const raw = header(headers, name);
    if (raw === undefined) {
      problems.push(`the ${name} header is missing`);
      return undefined;
    }
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || n < 1) {
      problems.push(`${name} is ${JSON.stringify(raw)}, not a positive integer`);
      return undefined;
    }
    return n;
  };
  const sampleRate = read(names.sampleRate);
  const channels = read(names.channels);
  const bitDepth = read(names.bitDepth);
  const layout =
    sampleRate !== undefined && channels !== undefined && bitDepth !== undefined
      ? { sampleRate, channels, bitDepth }
      : undefined;
  return { layout, problems };
}

const hasKey = (facts: ExchangeFacts) => {
  const v = facts.requestHeaders['x-api-key'];
  return (Array.isArray(v) ? v.join('') : (v ?? '')).trim() !== '';
};

/**
 * Every rule of the contract the exchange breaks, once each: the problems one rule finds in one answer
 * (an error envelope on HTTP 200 breaks `succeed`, `error_code`, `error_message` and `data` at once) are
 * one violation whose `seen` lists them, so counts say how many things are wrong, not how many fields.
 */
export function judge(facts: ExchangeFacts, opts: JudgeOptions = defaultJudgeOptions): Finding[] {
  const out: Finding[] = [];
  const add = (rule: Rule, seen: string) => {
    const i = out.findIndex((f) => f.rule.id === rule.id);
    const found = out[i];
    if (found) out[i] = { rule, seen: `${found.seen}; ${seen}` };
    else out.push({ rule, seen });
  };
  const op = facts.operationId;
  const { status } = facts;

  const keyMissing = !hasKey(facts) && status !== 401;
  if (keyMissing) {
    add(rules.missingKey, `a request without X-API-Key was answered HTTP ${status}; §5.5 asks for 401 (error_code 10003)`);
  }

  const documented = documentedStatuses(op);
  if (!documented.includes(status)) {
    if (generalErrorStatuses.has(status) && op !== 'uploadFile') return out;
    // The missing key already names what is wrong with this answer's status.
    if (!keyMissing) add(rules.statusDocumented, `HTTP ${status}; ${op} documents ${documented.join(', ')}`);
    // No schema, media type or envelope rule is documented for that status: one violation says it all.
    return out;
  }

  const contentType = header(facts.responseHeaders, 'content-type');
  const mime = mimeOf(contentType);
  const media = documentedMediaTypes(op, status);
  const ok = status >= 200 && status < 300;
  const audioAnswer = !envelopeOperations.has(op) && ok;
  if (media.length > 0 && !media.includes(mime) && !(audioAnswer && audioKindOf(contentType))) {
    add(rules.contentType, `Content-Type ${JSON.stringify(contentType ?? '')} on HTTP ${status}; documented: ${media.join(', ')}`);
  }

  if (audioAnswer) judgeAudio(facts, opts, add);
  else judgeJson(facts, add);
  return out;
}

function judgeJson(facts: ExchangeFacts, add: (rule: Rule, seen: string) => void): void {
  const op = facts.operationId;
  const { status } = facts;
  const body = facts.responseJson;
  if (body.kind === 'too-large') return; // noted on the exchange: not validated
  if (body.kind !== 'json') {
    add(rules.envelope, body.kind === 'not-json' ? `the body is not JSON (${body.error})` : 'the body is empty; the envelope of §2.1 was expected');
    return;
  }
  const json = body.value;
  const envelopeFound = envelopeProblems(json, status, { dataMayBeNull: op === 'deleteVoice' || op === 'saveVoice' });
  for (const p of envelopeFound) add(rules.envelope, p);
  if (!isObject(json)) return;
  const code = json.error_code;
  const pairing = pairingProblems(op, status, code);
  for (const p of pairing) add(rules.errorCode, p);
  // §4.2 rule 1 states one voice-creation pair: a voice ID over 30 characters is HTTP 400 with 10001.
  if (op === 'saveVoice' && code === errors.voiceIdTooLong.code && status !== errors.voiceIdTooLong.status)
    add(rules.errorCode, `error_code ${code} comes with HTTP ${status}; §4.2 rule 1 pairs it with ${errors.voiceIdTooLong.status}`);
  if (pairing.length === 0 && status === errors.missingApiKey.status && typeof code === 'number' && code !== errors.missingApiKey.code)
    add(rules.errorCode, `HTTP 401 carries error_code ${code}; §5.5 pairs it with ${errors.missingApiKey.code}`);
  // One deviation, one violation: a schema finding that restates an envelope problem (the envelope's
  // own fields) or the page-size rule (the list's and total's bounds, below) is left out.
  const pageSizeFound: string[] = [];
  const data = status === 200 && isObject(json.data) ? json.data : undefined;
  if (data && op === 'listVoices' && Array.isArray(data.list)) {
    const asked = Number(facts.query.page_size);
    const pageSize = Number.isInteger(asked) && asked >= limits.pageSizeMin.value && asked <= limits.pageSizeMax.value ? asked : limits.pageSizeDefault.value;
    if (data.list.length > pageSize) {
      pageSizeFound.push('/data/list', '/data/total'); // a total over 20 follows from the long page
      add(rules.pageSize, `${data.list.length} voices in a page of page_size ${pageSize}${facts.query.page_size === undefined ? ' (the default)' : ''}`);
    }
    if (typeof data.total === 'number' && data.total !== data.list.length) {
      pageSizeFound.push('/data/total');
      add(rules.pageSize, `total is ${data.total} for a page of ${data.list.length} voices; §4.3: the number of voices returned in this page`);
    }
  }
  for (const p of schemaProblems(op, status, json).problems) {
    if (envelopeFound.length > 0 && envelopePointers.has(p.pointer)) continue;
    if (pageSizeFound.includes(p.pointer)) continue;
    add(rules.schema, `${p.pointer || '/'} ${p.message}`);
  }
  if (!data) return;
  if (op === 'uploadFile' && facts.form && !facts.form.error) {
    const files = facts.form.parts.filter((p) => p.name === 'file');
    const file = files.length === 1 ? files[0] : undefined;
    if (file && typeof data.size === 'number' && data.size !== file.bytes)
      add(rules.uploadSize, `size is ${data.size}; the uploaded file has ${file.bytes} bytes`);
    if (file?.filename !== undefined && typeof data.file_name === 'string' && data.file_name !== file.filename)
      add(rules.uploadName, `file_name is ${JSON.stringify(data.file_name)}; the upload named ${JSON.stringify(file.filename)}`);
  }
}

function judgeAudio(facts: ExchangeFacts, opts: JudgeOptions, add: (rule: Rule, seen: string) => void): void {
  const contentType = header(facts.responseHeaders, 'content-type');
  const kind = audioKindOf(contentType);
  const audio = facts.audio;
  if (kind === 'pcm') {
    const { problems } = pcmLayoutOf(facts.responseHeaders, opts.pcmHeaders);
    for (const p of problems) add(rules.pcmHeaders, p);
  }
  if (audio) for (const p of audio.problems) add(rules.audioBody, `${audio.kind.toUpperCase()}: ${p}`);
  const json = facts.requestJson.kind === 'json' && isObject(facts.requestJson.value) ? facts.requestJson.value : undefined;
  const asked = typeof json?.audio_format === 'string' ? json.audio_format.toLowerCase() : undefined;
  if (kind && (asked === 'wav' || asked === 'mp3' || asked === 'pcm') && asked !== kind)
    add(rules.audioFormat, `audio_format "${asked}" was asked for; the answer is ${JSON.stringify(contentType)}`);
  if (facts.operationId !== 'streamSpeech') return;
  const length = header(facts.responseHeaders, 'content-length');
  if (length !== undefined) {
    // A body whose length was known up front was whole before it was sent: the one violation says it.
    add(rules.streamChunked, `the stream carries Content-Length: ${length}`);
    return;
  }
  const prefer = header(facts.requestHeaders, 'prefer') ?? '';
  const { waitMs, spanMs, chunks } = facts.timing;
  const seconds = audio?.seconds;
  if (seconds === undefined || /latency=|fault=/i.test(prefer)) return;
  const lumpSpan = Math.max(20, waitMs / 10, seconds * 1000 * 0.02);
  if (waitMs >= opts.lumpWaitMs && spanMs <= lumpSpan && seconds >= opts.lumpMinSeconds) {
    add(
      rules.streamProgressive,
      `${seconds.toFixed(2)} s of audio (${audio?.bytes} bytes) arrived as one lump: nothing for ${Math.round(waitMs)} ms, then all of it within ${Math.round(spanMs)} ms (${chunks} chunk(s))`,
    );
  }
}
