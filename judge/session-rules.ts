/**
 * Session rules: judge an exchange against what earlier ones established (session.ts), then record it.
 * A saved voice is selectable at once and listed until deleted; a deleted voice is neither listed nor
 * selectable; an upload neither creates a voice nor uses a free clone; a creation uses exactly one free
 * use while any remain, a refused one none; an object key is refused to another scope's keys.
 *
 * Honesty: other clients may change the deployment unseen (delete a voice, create one on the same
 * account). Rules that need a complete view are `should` unless the judge is told it sees all traffic
 * (`completeView`, or `ownVoice(id)` for voices only this client touches, as the suite's run prefix),
 * and a list counts as a full view only when a walk from the first page to `has_more: false` was seen
 * without writes in between.
 */
import { normalizeVoiceId, synthesis } from '../openapi/contract.js';
import {
  apiKeyOf,
  type ExchangeFacts,
  errorCodeOf,
  isObject,
  isRefusal,
  isSuccess,
  jsonObject,
  sentAsJson,
} from './exchange.js';
import { type Rule, rules, type Severity } from './rules.js';
import { remember, type ScopeState, type Session } from './session.js';

export interface Evidence {
  /** The earlier exchange that set the expectation. */
  readonly exchange: number;
  readonly what: string;
}

export type SessionAdd = (rule: Rule, seen: string, evidence?: Evidence, severity?: Severity) => void;

export interface SessionRuleOptions {
  /** The judge sees every exchange with the deployment (`--sole-client`). */
  readonly completeView: boolean;
  /** Voices only this client touches (the suite's run prefix): judged as with a complete view. */
  readonly ownVoice?: (voiceId: string) => boolean;
}

const synthesisOptions = ['audio_format', 'language', 'emotion_class'] as const;

/**
 * Judge the exchange against the session, then record what it establishes.
 *
 * @example judgeSession(facts, session, { completeView: false }, add);
 */
export function judgeSession(
  facts: ExchangeFacts,
  session: Session,
  opts: SessionRuleOptions,
  add: SessionAdd,
): void {
  const key = apiKeyOf(facts);
  if (!key || facts.status === 401) return;
  session.sawKey(key);
  const scope = session.scope(key);
  const sure = (voice: string | undefined): Severity =>
    opts.completeView || (voice !== undefined && opts.ownVoice?.(voice)) ? 'must' : 'should';
  switch (facts.operationId) {
    case 'synthesizeSpeech':
    case 'streamSpeech':
      synthesisRules(facts, scope, sure, add);
      return;
    case 'listVoices':
      listRules(facts, session, key, scope, opts, sure, add);
      return;
    case 'saveVoice':
      saveRules(facts, session, key, scope, add);
      return;
    case 'deleteVoice':
      deleteRecord(facts, scope);
      return;
    case 'uploadFile':
      uploadRecord(facts, session, key);
      return;
  }
}

const lastEvent = (scope: ScopeState, voice: string) => scope.voices.get(voice);

function synthesisRules(
  facts: ExchangeFacts,
  scope: ScopeState,
  sure: (v: string | undefined) => Severity,
  add: SessionAdd,
): void {
  const body = jsonObject(facts.requestJson);
  if (!body) return;
  const voice = typeof body.voice_id === 'string' ? body.voice_id : undefined;
  const event = voice === undefined ? undefined : lastEvent(scope, voice);
  const n = facts.seq;
  if (isSuccess(facts)) {
    if (event?.kind === 'deleted')
      add(
        rules.deletedGone,
        `voice ${JSON.stringify(voice)} deleted at exchange ${event.at}, synthesized again at exchange ${n}`,
        { exchange: event.at, what: `deleted ${JSON.stringify(voice)}` },
        sure(voice),
      );
    recordAccepted(body, scope, n);
    return;
  }
  // A refusal of a request not sent as JSON may be for its form: not judged here.
  if (!isRefusal(facts) || facts.status === 403 || !sentAsJson(facts)) return;
  const code = errorCodeOf(facts);
  const unseenOption = synthesisOptions.find(
    (o) => body[o] !== undefined && !scope.accepted.options.has(`${o}=${String(body[o])}`),
  );
  if (event?.kind === 'deleted') return; // refused after its delete: right
  const text = body[synthesis.textField];
  const speed = body.speed;
  const valid =
    typeof text === 'string' &&
    text.trim() !== '' &&
    (speed === undefined || (typeof speed === 'number' && speed >= synthesis.speedMinimum));
  if (!valid) return; // refused for the request itself: the request rules say whether rightly
  const longest = scope.accepted.longestText;
  if (event?.kind === 'saved') {
    // An option never accepted (`allowed-options`) or a text longer than any accepted (`max-text-length`)
    // may be why: said, at should.
    const known = !unseenOption && longest !== undefined && text.length <= longest.length;
    const severity = known ? sure(voice) : 'should';
    add(
      rules.savedSelectable,
      `voice ${JSON.stringify(voice)} saved at exchange ${event.at}, refused by synthesis at exchange ${n} (HTTP ${facts.status}, error_code ${code ?? 'none'})`,
      { exchange: event.at, what: `saved ${JSON.stringify(voice)}` },
      severity,
    );
    return;
  }
  if (unseenOption) return;
  refusedValid(facts, body, scope, voice, event === undefined ? sure(undefined) : 'should', add);
}

/** A refusal of a request like one accepted before, on request grounds (`request.speed` / `request.synthesis`). */
function refusedValid(
  facts: ExchangeFacts,
  body: Record<string, unknown>,
  scope: ScopeState,
  voice: string | undefined,
  severity: Severity,
  add: SessionAdd,
): void {
  if (errorCodeOf(facts) !== 10001) return; // other codes name other grounds (billing, quota)
  const text = body[synthesis.textField];
  const speed = body.speed;
  if (typeof text !== 'string' || text.trim() === '') return;
  if (speed !== undefined && (typeof speed !== 'number' || speed < synthesis.speedMinimum)) return;
  const longest = scope.accepted.longestText;
  if (!longest || text.length > longest.length) return; // a longer text may pass an unstated limit (`max-text-length`)
  const voiceAt = voice === undefined ? longest.at : scope.accepted.voices.get(voice);
  if (voiceAt === undefined) return; // a voice never seen accepted may not exist
  const rule = speed !== undefined ? rules.speed : rules.synthesis;
  const what = speed !== undefined ? `speed ${speed}` : 'a valid request';
  add(
    rule,
    `${what} refused with HTTP ${facts.status} / 10001 at exchange ${facts.seq}; the same voice, options and a text as long were accepted at exchange ${voiceAt}`,
    { exchange: voiceAt, what: 'accepted a request like it' },
    voice === undefined ? 'must' : severity,
  );
}

function recordAccepted(body: Record<string, unknown>, scope: ScopeState, n: number): void {
  for (const o of synthesisOptions)
    if (body[o] !== undefined && !scope.accepted.options.has(`${o}=${String(body[o])}`))
      scope.accepted.options.set(`${o}=${String(body[o])}`, n);
  if (typeof body.voice_id === 'string' && !scope.accepted.voices.has(body.voice_id))
    scope.accepted.voices.set(body.voice_id, n);
  const text = body[synthesis.textField];
  if (
    typeof text === 'string' &&
    (!scope.accepted.longestText || text.length > scope.accepted.longestText.length)
  )
    scope.accepted.longestText = { length: text.length, at: n };
}

function listRules(
  facts: ExchangeFacts,
  session: Session,
  key: string,
  scope: ScopeState,
  opts: SessionRuleOptions,
  sure: (v: string | undefined) => Severity,
  add: SessionAdd,
): void {
  const data = facts.status === 200 ? jsonObject(facts.responseJson)?.data : undefined;
  if (!isObject(data) || !Array.isArray(data.list)) return;
  const n = facts.seq;
  const ids = data.list
    .map((v) => (isObject(v) && typeof v.voice_id === 'string' ? v.voice_id : undefined))
    .filter((v): v is string => v !== undefined);
  for (const id of ids) {
    const event = lastEvent(scope, id);
    if (event?.kind === 'deleted')
      add(
        rules.deletedGone,
        `voice ${JSON.stringify(id)} deleted at exchange ${event.at}, listed again at exchange ${n}`,
        { exchange: event.at, what: `deleted ${JSON.stringify(id)}` },
        sure(id),
      );
  }
  walkPage(facts, scope, ids, data, sure, add);
  if (typeof data.remainingFreeCloneCount === 'number')
    freeUseRules(session, session.accountOf(key), data.remainingFreeCloneCount, n, opts, add);
}

function walkPage(
  facts: ExchangeFacts,
  scope: ScopeState,
  ids: string[],
  data: Record<string, unknown>,
  sure: (v: string | undefined) => Severity,
  add: SessionAdd,
): void {
  const cursor = facts.query.voice_id;
  if (cursor === undefined) scope.walk = { from: facts.seq, next: undefined, seen: new Set(), broken: false };
  else if (!scope.walk || scope.walk.next !== cursor) scope.walk = undefined;
  const walk = scope.walk;
  if (!walk) return;
  for (const id of ids) walk.seen.add(id);
  walk.next = typeof data.next_voice_id === 'string' ? data.next_voice_id : undefined;
  if (data.has_more !== false) return;
  scope.walk = undefined;
  if (walk.broken) return;
  for (const [id, event] of scope.voices) {
    if (event.kind !== 'saved' || event.at > walk.from || walk.seen.has(id)) continue;
    add(
      rules.savedListed,
      `voice ${JSON.stringify(id)} saved at exchange ${event.at}, missing from a complete walk of the list (exchanges ${walk.from}–${facts.seq})`,
      { exchange: event.at, what: `saved ${JSON.stringify(id)}` },
      sure(id),
    );
  }
}

function freeUseRules(
  session: Session,
  account: string,
  count: number,
  n: number,
  opts: SessionRuleOptions,
  add: SessionAdd,
): void {
  const before = session.freeUses(account);
  session.observeFreeUses(account, count, n);
  if (!before) return;
  const made = before.creations.length;
  const expected = Math.max(0, before.count - made);
  if (count === expected) return;
  // Fewer left than expected may be another key's creation on the same account, unknown without `keys`.
  if (count < expected && session.accountsUncertain) return;
  const severity: Severity = opts.completeView ? 'must' : 'should';
  const evidence = { exchange: before.at, what: `remainingFreeCloneCount ${before.count}` };
  const between = `${made} creation(s)${made ? ` (exchange ${before.creations.join(', ')})` : ''}, ${before.refused.length} refused, ${before.uploads.length} upload(s)`;
  const seen = `remainingFreeCloneCount ${before.count} at exchange ${before.at}, then ${between}, then ${count} at exchange ${n}; ${expected} was expected`;
  if (made === 0 && before.uploads.length > 0 && count < before.count)
    add(rules.uploadFree, seen, evidence, severity);
  else add(rules.freeUses, seen, evidence, severity);
}

function saveRules(
  facts: ExchangeFacts,
  session: Session,
  key: string,
  scope: ScopeState,
  add: SessionAdd,
): void {
  const body = jsonObject(facts.requestJson);
  if (!body || typeof body.voice_id !== 'string') return;
  const account = session.accountOf(key);
  if (!isSuccess(facts)) {
    if (facts.status >= 400 && facts.status < 500 && facts.status !== 429)
      session.noteOnAccount(account, 'refused', facts.seq);
    return;
  }
  const ref = typeof body.ref_audio === 'string' ? session.objectKeys.get(body.ref_audio) : undefined;
  const here = session.tenancyOf(key);
  if (ref && session.knowsTenancy && ref.tenancy !== here)
    add(
      rules.objectKeyScope,
      `object key uploaded at exchange ${ref.at} in ${ref.tenancy}, accepted at exchange ${facts.seq} by a key of ${here}`,
      { exchange: ref.at, what: `uploaded in ${ref.tenancy}` },
    );
  const returned = jsonObject(facts.responseJson)?.data;
  const id =
    isObject(returned) && typeof returned.voice_id === 'string'
      ? returned.voice_id
      : normalizeVoiceId(body.voice_id);
  remember(scope.voices, id, { kind: 'saved', at: facts.seq });
  session.breakWalks(scope);
  session.noteOnAccount(account, 'creations', facts.seq);
}

function deleteRecord(facts: ExchangeFacts, scope: ScopeState): void {
  // Only a success deletes: a refusal (or a 404 for a voice already missing) changes nothing.
  if (facts.status !== 200) return;
  const raw = /\/v1\/voice\/([^/?#]+)/.exec(facts.path)?.[1];
  if (raw === undefined) return;
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return;
  }
  remember(scope.voices, id, { kind: 'deleted', at: facts.seq });
  if (scope.walk) scope.walk.broken = true;
}

function uploadRecord(facts: ExchangeFacts, session: Session, key: string): void {
  if (!isSuccess(facts)) return;
  const data = jsonObject(facts.responseJson)?.data;
  if (isObject(data) && typeof data.object_key === 'string')
    remember(session.objectKeys, data.object_key, { tenancy: session.tenancyOf(key), at: facts.seq });
  session.noteOnAccount(session.accountOf(key), 'uploads', facts.seq);
}
