/**
 * Which point an exchange is about when its sender does not say (the proxy): only where the facts leave
 * no doubt. A save refused with 20016 is `voice-save-statuses/20016`; a list refused for a page_size of
 * 25 is `page-size-out-of-range`; 20012 is `voice-save-statuses/20012` only when the ref_audio was
 * uploaded by the same key in this session (so it is accessible); a refusal of a request that could be
 * refused for two reasons is nobody's evidence. A 401 is never evidence (the key, not the point).
 */
import { apiKeyOf, type ExchangeFacts, jsonObject, sentAsJson } from '../judge/exchange.js';
import { limits, normalizeVoiceId, voiceId as voiceIdRules } from '../openapi/contract.js';
import { matchRoute } from '../openapi/route-match.js';
import type { PointId } from './points.js';
import { refusalOf, requestVoiceId, type SeenFacts } from './read-choice.js';

/** What the recorder remembers of the session, as classify asks it. */
export interface SessionView {
  /** The API key that uploaded this object key in this session, if one did. */
  uploadedBy(objectKey: string): string | undefined;
  /** What this session saw happen to the voice `id` of `apiKey`. */
  voiceState(apiKey: string, id: string): 'live' | 'deleted' | undefined;
}

export interface Classified {
  readonly point: PointId;
  readonly aspect?: string;
}

/** The six voice-creation codes whose status §7.2 leaves open, by the point that carries each. */
const saveStatusCodes = new Set([10018, 20010, 20012, 20015, 20016, 20017]);

const pageSizeOk = (v: string | undefined) =>
  v === undefined ||
  (/^\d+$/.test(v) && Number(v) >= limits.pageSizeMin.value && Number(v) <= limits.pageSizeMax.value);

/** An exchange no operation has: an unknown path, or a known one with a method it does not take. */
function unrouted(f: SeenFacts): Classified | undefined {
  // HEAD answers have no body, OPTIONS may be a CORS preflight: neither shows an envelope.
  if (f.method === 'HEAD' || f.method === 'OPTIONS') return undefined;
  const route = matchRoute(f.method, f.path.split('?')[0] ?? '/');
  if (route.kind === 'method-not-allowed') return { point: 'general-errors/wrong-method' };
  if (route.kind === 'not-found') return { point: 'general-errors/unknown-path' };
  return undefined;
}

/** A save: its success data, a voice-creation code, an invalid id, malformed JSON. */
function save(f: SeenFacts, view: SessionView): Classified | undefined {
  if (f.status === 200) return { point: 'voice-save-data' };
  const refusal = refusalOf(f);
  if (!refusal) return undefined;
  if (f.requestJson.kind === 'not-json' && sentAsJson(f as ExchangeFacts))
    return { point: 'general-errors/malformed-json' };
  const body = jsonObject(f.requestJson);
  if (saveStatusCodes.has(refusal.error_code)) {
    if (refusal.error_code !== 20012)
      return { point: `voice-save-statuses/${refusal.error_code}` as PointId };
    // 20012 is also the kit's (and maybe a deployment's) code for a ref_audio that is not accessible.
    const ref = body?.ref_audio;
    const accessible = typeof ref === 'string' && view.uploadedBy(ref) === apiKeyOf(f);
    return accessible ? { point: 'voice-save-statuses/20012' } : undefined;
  }
  const id = typeof body?.voice_id === 'string' ? normalizeVoiceId(body.voice_id) : undefined;
  const invalid =
    id !== undefined &&
    id.length <= limits.voiceIdMaxLength.value &&
    !new RegExp(voiceIdRules.pattern).test(id) &&
    typeof body?.ref_audio === 'string';
  return invalid ? { point: 'voice-id-invalid-characters' } : undefined;
}

/** A list refused for its page_size alone, or for its cursor alone. */
function list(f: SeenFacts): Classified | undefined {
  if (!refusalOf(f)) return undefined;
  const size = f.query.page_size;
  const cursor = f.query.voice_id;
  if (!pageSizeOk(size) && cursor === undefined) return { point: 'page-size-out-of-range' };
  if (pageSizeOk(size) && cursor !== undefined) return { point: 'list-errors/unknown-cursor' };
  return undefined;
}

/** A delete of a voice this session saw live (its data) or saw deleted (the missing answer). */
function remove(f: SeenFacts, view: SessionView): Classified | undefined {
  const id = requestVoiceId(f);
  const state = id === undefined ? undefined : view.voiceState(apiKeyOf(f), id);
  if (state === 'deleted' && (f.status === 200 || refusalOf(f)))
    return { point: 'delete-response-body/missing' };
  if (state === 'live' && f.status === 200) return { point: 'delete-response-body' };
  return undefined;
}

/** A synthesis: malformed JSON, the text alias, a missing text, a negative speed, the default format. */
function synthesis(f: SeenFacts): Classified | readonly Classified[] | undefined {
  if (f.requestJson.kind === 'not-json' && sentAsJson(f as ExchangeFacts))
    return refusalOf(f) ? { point: 'general-errors/malformed-json' } : undefined;
  const body = jsonObject(f.requestJson);
  if (!body) return undefined;
  const text = body.generate_text;
  const speed = body.speed;
  const negative = typeof speed === 'number' && speed < 0;
  if (text === undefined && typeof body.text === 'string' && !negative) return { point: 'text-alias' };
  if ((text === undefined || text === '') && body.text === undefined && !negative)
    return refusalOf(f) ? { point: 'synthesis-errors/missing-text' } : undefined;
  if (typeof text === 'string' && text !== '' && negative)
    return refusalOf(f) ? { point: 'synthesis-errors/negative-speed' } : undefined;
  if (f.status !== 200 || typeof text !== 'string') return undefined;
  // A PCM answer shows its header names whether PCM was asked for or is the default.
  const pcm: Classified = { point: 'pcm-header-names' };
  if (body.audio_format === undefined) return [{ point: 'default-audio-format' }, pcm];
  return body.audio_format === 'pcm' ? pcm : undefined;
}

/**
 * The point one exchange shows without a hint, or undefined. list-order and max-text-length are read
 * from several exchanges together (recorder.ts), not here.
 */
export function classify(f: SeenFacts, view: SessionView): readonly Classified[] {
  const found = classifyOne(f, view);
  return found === undefined ? [] : Array.isArray(found) ? found : [found as Classified];
}

function classifyOne(f: SeenFacts, view: SessionView): Classified | readonly Classified[] | undefined {
  if (f.status === 401) return undefined;
  switch (f.operationId) {
    case undefined:
      return refusalOf(f) ? unrouted(f) : undefined;
    case 'uploadFile':
      return f.status === 429 ? { point: 'upload-retry-after' } : undefined;
    case 'saveVoice':
      return save(f, view);
    case 'listVoices':
      return list(f);
    case 'deleteVoice':
      return remove(f, view);
    case 'synthesizeSpeech':
    case 'streamSpeech':
      return synthesis(f);
    default:
      return undefined;
  }
}
