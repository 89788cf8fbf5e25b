/**
 * When the deployment and the model disagree on accepting a request, is a point the spec leaves open
 * the reason (docs/spec-silent.md)? Each function answers with that reason, or undefined when the
 * difference is the deployment's: then it is a finding.
 */
import { normalizeVoiceId, voiceId as voiceIdRule } from '../openapi/contract.js';
import type { OracleOperation } from './exchange.js';

/** What the oracle knows of a request when it weighs a difference. */
export interface Weighed {
  readonly op: OracleOperation;
  readonly body: Readonly<Record<string, unknown>>;
  /** The key is one the oracle was given (else its acceptance is the deployment's business). */
  readonly knownKey: boolean;
  readonly keyPresent: boolean;
  /** The oracle was told whether the key may clone (§5.3). */
  readonly cloningKnown: boolean;
  /** saveVoice, deleteVoice, synthesis: the voice named is live in the model's scope of the key. */
  readonly voiceLive: boolean;
  /** ... or was deleted there. */
  readonly voiceDeleted: boolean;
  /** synthesis: the deployment made this voice speak before in this scope (a voice that spoke keeps speaking). */
  readonly voiceHeard: boolean;
  /** saveVoice: ref_audio is an object key the deployment gave in this session (else a URL or an unknown key). */
  readonly refKnown: boolean;
  /** ... given to a key of another organization, project space or environment (§2.2, §5.4). */
  readonly refForeign: boolean;
  /** The longest text the deployment accepted so far. */
  readonly longestAccepted: number;
  /** `option=value` of the synthesis options the deployment accepted so far (any voice). */
  readonly acceptedOptions: ReadonlySet<string>;
  readonly query: URLSearchParams;
}

/** §7.2 codes about the recording itself: how a deployment reads audio is open (reference-decoding). */
const contentCodes = new Set([20010, 20012, 20015, 20016, 20017]);

const synthesisOptions = ['language', 'emotion_class', 'audio_format'] as const;

/** `option=value` of a synthesis request's options, as the oracle remembers accepted ones. */
export function optionValues(body: Readonly<Record<string, unknown>>): string[] {
  return [...synthesisOptions, 'speed' as const]
    .filter((o) => body[o] !== undefined)
    .map((o) => `${o}=${JSON.stringify(body[o])}`);
}

function openSynthesis(w: Weighed): string | undefined {
  const b = w.body;
  // A value the deployment accepted once (for any voice) is settled: §2.4 makes options apply to the
  // voice when it supports them, never a reason to refuse it.
  const unsettled = (o: string) => !w.acceptedOptions.has(`${o}=${JSON.stringify(b[o])}`);
  const used = synthesisOptions.filter((o) => b[o] !== undefined && unsettled(o));
  if (used.length > 0) return `the allowed ${used.join(', ')} are open (allowed-options)`;
  if (typeof b.speed === 'number' && b.speed > 0 && b.speed !== 1 && unsettled('speed'))
    return 'the accepted range of speed is open';
  if (typeof b.generate_text !== 'string' && typeof b.text === 'string') return 'the `text` alias is open';
  const text = typeof b.generate_text === 'string' ? b.generate_text : '';
  if (text.trim() === '') return 'an empty text is open (synthesis-errors)';
  if ([...text].length > w.longestAccepted) return 'no text this long was accepted yet (max-text-length)';
  return undefined;
}

/** The deployment accepted (2xx) what the model refused with `code`: why that may be allowed. */
export function acceptedExplained(w: Weighed, status: number, code: number | undefined): string | undefined {
  if (!w.knownKey && w.keyPresent) return 'a key the oracle was not given';
  if (status === 429) return 'rate limits are the deployment’s (§8 "default")';
  if (w.op === 'listVoices') return 'listing errors are open (list-errors, page-size-out-of-range)';
  if (w.op === 'deleteVoice') return status === 401 ? undefined : 'the status of a refused deletion is open';
  if (w.op === 'uploadFile') return undefined;
  if (w.op === 'saveVoice') {
    if (status === 401 || status === 403) return undefined;
    const raw = typeof w.body.voice_id === 'string' ? w.body.voice_id : undefined;
    const id = raw === undefined ? undefined : normalizeVoiceId(raw);
    if (code === 10001 && id !== undefined && id.length > 30) return undefined;
    if (code === 10001 && id !== undefined && !new RegExp(voiceIdRule.pattern).test(id))
      return 'ids with other characters are open (voice-id-invalid-characters)';
    if (code === 10018) return w.voiceLive ? undefined : 'which ids are reserved is open';
    if (code === 20012 && w.refForeign) return undefined;
    if (code !== undefined && contentCodes.has(code))
      return 'how a recording is read is open (reference-decoding)';
    return code === 10001 ? 'the form of a save body the model refuses is open' : undefined;
  }
  // Synthesis: a deleted voice and a negative speed must be refused; the rest is open.
  if (status === 401) return undefined;
  if (typeof w.body.speed === 'number' && w.body.speed < 0) return undefined;
  if (w.voiceDeleted) return undefined;
  if (typeof w.body.generate_text !== 'string' && typeof w.body.text !== 'string') return undefined;
  const open = openSynthesis(w);
  if (open) return open;
  // A voice the model does not know may be one of the deployment's system voices.
  return typeof w.body.voice_id === 'string' && !w.voiceLive
    ? 'which system voices exist is open'
    : undefined;
}

/** The deployment refused (4xx, `code`) what the model accepted: why that may be allowed. */
export function refusedExplained(w: Weighed, status: number, code: number | undefined): string | undefined {
  if (!w.knownKey) return 'a key the oracle was not given';
  if (status === 429) return 'rate limits are the deployment’s';
  if (status === 402) return undefined;
  if (w.op === 'listVoices') {
    const size = w.query.get('page_size');
    return w.query.has('voice_id') || (size !== null && size !== String(Number.parseInt(size, 10)))
      ? 'cursor semantics are open (list-order)'
      : undefined;
  }
  if (w.op === 'deleteVoice')
    return w.voiceLive ? undefined : 'deleting a missing voice "may" succeed (§4.4)';
  if (w.op === 'uploadFile') return undefined;
  if (w.op === 'saveVoice') {
    if (status === 403 && !w.cloningKnown) return 'whether the key may clone was not given to the oracle';
    if (code !== undefined && contentCodes.has(code))
      return 'how a recording is read is open (reference-decoding)';
    if (code === 10018) return 'which ids are reserved is open';
    return w.refKnown ? undefined : 'a reference the model could not read (URL or unknown key)';
  }
  const open = openSynthesis(w);
  if (open || w.voiceLive || w.voiceHeard) return open;
  // A system voice the model has may not be one of the deployment's (default-voice is open).
  return typeof w.body.voice_id === 'string' ? 'which system voices exist is open' : undefined;
}

/**
 * Both refused with the same code: the status the spec states for it (§7.1 for uploads, §4.2 rule 1
 * for a too-long voice_id), or undefined where the status is the deployment's choice.
 */
export function statusStated(w: Weighed, code: number | undefined, modelStatus: number): number | undefined {
  return codeStated(w, code) && code !== 10018 ? modelStatus : undefined;
}

/** Both refused: does the deployment's code differ where the spec states one (§7.1, §4.2 rules 1-2, §5.5)? */
export function codeStated(w: Weighed, modelCode: number | undefined): boolean {
  if (modelCode === undefined) return false;
  // §7.1 states the upload codes, 10003 for a missing key included.
  if (w.op === 'uploadFile')
    return (w.knownKey || !w.keyPresent) && [10001, 10003, 20010, 20012].includes(modelCode);
  if (!w.knownKey) return false;
  if (w.op === 'saveVoice') {
    if (modelCode === 10018) return w.voiceLive;
    if (modelCode === 10001) {
      const raw = typeof w.body.voice_id === 'string' ? w.body.voice_id : '';
      return normalizeVoiceId(raw).length > 30;
    }
  }
  return false;
}
