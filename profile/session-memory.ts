/**
 * What a recorder remembers of the session so that later exchanges can be read with no doubt: who
 * uploaded which object key, which voices were saved (in what order) and deleted, and for each kind of
 * synthesis request the text lengths accepted and refused. Bounded: past its caps it forgets the oldest.
 */
import { apiKeyOf, type ExchangeFacts, isObject, jsonObject } from '../judge/exchange.js';
import { refusalOf, requestVoiceId, type SeenFacts } from './read-choice.js';
import type { Evidence, RefusalChoice } from './types.js';

/** Entries kept: uploads and voices; kinds of synthesis request; refused lengths per kind (a bisection is 20). */
const cap = 4096;
const kindsCap = 256;
const lengthsCap = 64;
/** Longer keys, ids and request shapes are not remembered: a client may send megabytes of them. */
const longest = 1024;

export interface VoiceMemo {
  readonly state: 'live' | 'deleted';
  /** The order of its save in the session (live voices only). */
  readonly order: number;
}

/** The lengths seen for one kind of synthesis request (same endpoint, key and other fields). */
export interface LengthRun {
  accepted: { readonly characters: number; readonly evidence: Evidence } | undefined;
  readonly refused: Map<number, { readonly refusal: RefusalChoice; readonly evidence: Evidence }>;
}

/** A Map that forgets its oldest entry past `limit`. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, limit = cap): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}

/** JSON with sorted keys: two bodies that differ only in key order are one kind of request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export class SessionMemory {
  private readonly uploads = new Map<string, string>();
  private readonly voices = new Map<string, VoiceMemo>();
  readonly lengths = new Map<string, LengthRun>();
  private saves = 0;

  uploadedBy(objectKey: string): string | undefined {
    return this.uploads.get(objectKey);
  }

  voiceState(apiKey: string, id: string): 'live' | 'deleted' | undefined {
    return this.voices.get(`${apiKey}\u0000${id}`)?.state;
  }

  /** The save order of a live voice of `apiKey`, or undefined. */
  liveOrder(apiKey: string, id: string): number | undefined {
    const v = this.voices.get(`${apiKey}\u0000${id}`);
    return v?.state === 'live' ? v.order : undefined;
  }

  /** Learn from an exchange after it was read (a delete is read against the state before it). */
  learn(f: SeenFacts, evidence: Evidence): void {
    const key = apiKeyOf(f as ExchangeFacts);
    if (key.length > longest) return;
    if (f.operationId === 'uploadFile' && f.status === 200) {
      const objectKey = (jsonObject(f.responseJson)?.data as Record<string, unknown> | undefined)?.object_key;
      if (typeof objectKey === 'string' && objectKey.length <= longest)
        remember(this.uploads, objectKey, key);
    }
    const id = requestVoiceId(f);
    if (id !== undefined && id.length > longest) return;
    if (f.operationId === 'saveVoice' && f.status === 200 && id !== undefined)
      remember(this.voices, `${key}\u0000${id}`, { state: 'live', order: ++this.saves });
    // A delete that succeeded leaves the voice missing, whatever it was before (§4.4 is idempotent).
    if (f.operationId === 'deleteVoice' && f.status === 200 && id !== undefined)
      remember(this.voices, `${key}\u0000${id}`, { state: 'deleted', order: 0 });
    if (f.operationId === 'synthesizeSpeech' || f.operationId === 'streamSpeech')
      this.learnLength(f, evidence);
  }

  /** A synthesis whose only doubt is its text length: accepted, or refused (a 4xx with a code). */
  private learnLength(f: SeenFacts, evidence: Evidence): void {
    const body = jsonObject(f.requestJson);
    const text = body?.generate_text;
    if (!body || typeof text !== 'string' || text === '') return;
    if (typeof body.speed === 'number' && body.speed < 0) return;
    const { generate_text: _, ...rest } = body;
    const shape = canonical(rest);
    if (shape.length > longest) return;
    const kind = `${f.operationId}\u0000${apiKeyOf(f as ExchangeFacts)}\u0000${shape}`;
    // Code points, as the mock counts its maxTextLength.
    const characters = [...text].length;
    let run = this.lengths.get(kind);
    if (!run) {
      run = { accepted: undefined, refused: new Map() };
      remember(this.lengths, kind, run, kindsCap);
    }
    const refusal = refusalOf(f);
    if (f.status === 200) {
      if (!run.accepted || characters > run.accepted.characters) run.accepted = { characters, evidence };
    } else if (refusal) remember(run.refused, characters, { refusal, evidence }, lengthsCap);
  }
}
