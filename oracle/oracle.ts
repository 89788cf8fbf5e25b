/**
 * The differential oracle: every exchange a deployment answered is answered again by the model (the
 * mock core, model.ts) from the same visible state, and what the contract makes observable is
 * compared. A difference that no point the spec leaves open explains is a verdict with both answers.
 */
import type { Verdict } from '../judge/index.js';
import type { KeyConfig } from '../mocks/config/types.js';
import { apiKeyHeader, normalizeVoiceId } from '../openapi/contract.js';
import { Coverage, creationState, freeUsesState, listStates } from './coverage.js';
import { envelopeOf, type OracleExchange, type OracleOperation, operationOf } from './exchange.js';
import { pageSizeOf, Walks } from './lists.js';
import { type ModelAnswer, type OracleKey, ShadowModel } from './model.js';
import {
  acceptedExplained,
  codeStated,
  optionValues,
  refusedExplained,
  statusStated,
  type Weighed,
} from './refusals.js';
import { type OracleRule, oracleRules } from './rules.js';

export interface OracleOptions {
  /** The deployment's keys (never written into a verdict) and where each belongs. */
  readonly keys: Readonly<Record<string, OracleKey>>;
  /** The deployment's calibration profile (docs/calibration.md), when there is one. */
  readonly profile?: unknown;
  /** Seed of the model (object keys, voice profiles); default 1. */
  readonly seed?: number;
  /** How far `created_at` may be from the time of the save, in seconds (default 120). */
  readonly createdAtToleranceSeconds?: number;
  /**
   * The voices whose every write the oracle sees (a suite's run prefix); default all. Others belong to
   * clients it does not see: when a list shows one it is adopted, when a walk misses one it is
   * forgotten, never a finding.
   */
  readonly ownVoice?: (voiceId: string) => boolean;
}

export interface Oracle {
  /** Compare one exchange (in the order they happened); the verdicts of the differences found. */
  observe(exchange: OracleExchange): Promise<Verdict[]>;
  /** The abstract states reached so far. */
  readonly coverage: Coverage;
  /**
   * Forget every exchange (the coverage stays): the next one is compared from an empty model, which
   * adopts what the deployment shows again. Cheaper than a new oracle (one per explored sequence).
   */
  reset(): Promise<void>;
  /** Voices live in the model for this key's scope (what the deployment showed and was since told), or undefined for a key it was not given. */
  voices(apiKey: string): number | undefined;
  /** Free uses the model holds for this key's account, once a list showed them; else undefined. */
  freeUses(apiKey: string): number | undefined;
  close(): Promise<void>;
}

const ok = (status: number) => status >= 200 && status < 300;
const shown = (status: number, code: number | undefined) =>
  `HTTP ${status}${code !== undefined ? ` / error_code ${code}` : ''}`;
const bodyOf = (json: unknown): Record<string, unknown> =>
  typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};

/** What one exchange names, worked out before the model answers. */
interface Facts {
  readonly ex: OracleExchange;
  readonly op: OracleOperation;
  readonly key: KeyConfig | undefined;
  readonly space: string | undefined;
  readonly voice: string | undefined;
  readonly weighed: Weighed;
  readonly leftBefore: number | undefined;
}

class DifferentialOracle implements Oracle {
  readonly coverage = new Coverage();
  private walks = new Walks();
  /** Deployment object key → the model's, with the upload space it was given in. */
  private refs = new Map<string, { key: string; space: string }>();
  /** Scopes whose voices the oracle has seen in a complete walk (before that, listed voices are adopted). */
  private knownScopes = new Set<string>();
  private knownAccounts = new Set<string>();
  private longestAccepted = 0;
  private acceptedOptions = new Set<string>();
  /** Object keys the deployment's uploads answered, with the exchange that gave each. */
  private objectKeys = new Map<string, number>();
  /** Voices the deployment made speak, per scope (deleting one forgets it). */
  private heard = new Map<string, Set<string>>();
  /** The key the deployment's default voice is heard under. */
  private readonly defaultVoice = '\u0000default';
  private deleteSinceList = new Set<string>();
  private refusedSaveSinceList = new Set<string>();
  private readonly tolerance: number;
  private readonly own: (voiceId: string) => boolean;

  constructor(
    private readonly model: ShadowModel,
    options: OracleOptions,
  ) {
    this.tolerance = options.createdAtToleranceSeconds ?? 120;
    this.own = options.ownVoice ?? (() => true);
  }

  async reset(): Promise<void> {
    await this.model.reset();
    this.walks = new Walks();
    this.refs = new Map();
    this.knownScopes = new Set();
    this.knownAccounts = new Set();
    this.longestAccepted = 0;
    this.acceptedOptions = new Set();
    this.objectKeys = new Map();
    this.heard = new Map();
    this.deleteSinceList = new Set();
    this.refusedSaveSinceList = new Set();
  }

  voices(apiKey: string): number | undefined {
    const key = this.model.keyOf(apiKey);
    return key && this.model.live(this.model.spaceOf(key)).length;
  }

  freeUses(apiKey: string): number | undefined {
    const key = this.model.keyOf(apiKey);
    return key && this.knownAccounts.has(key.account) ? this.model.remaining(key.account) : undefined;
  }

  async observe(ex: OracleExchange): Promise<Verdict[]> {
    const op = operationOf(ex.request.method, ex.request.path);
    if (!op) return [];
    this.model.moveTo(ex.at);
    const facts = this.factsOf(ex, op);
    const write = op === 'uploadFile' || op === 'saveVoice' || op === 'deleteVoice';
    const before = write ? this.model.snapshot() : undefined;
    const modelAnswer = await this.model.answer(ex.request, (json) => this.mapRef(json));
    const out: Verdict[] = [];
    const verdict = (rule: OracleRule, seen: string) =>
      out.push({
        rule: rule.id,
        kind: 'session',
        severity: rule.severity,
        section: rule.section,
        operation: op,
        exchange: ex.seq,
        seen,
      });
    this.compareStatus(facts, modelAnswer, verdict);
    this.compareSucceed(facts, verdict);
    if (op === 'uploadFile' && ok(ex.answer.status)) this.compareObjectKey(facts, verdict);
    if (before) await this.follow(facts, modelAnswer, before);
    if (op === 'listVoices' && ok(ex.answer.status)) await this.comparePage(facts, verdict);
    if ((op === 'synthesizeSpeech' || op === 'streamSpeech') && ok(ex.answer.status)) {
      this.compareAudio(facts, modelAnswer, verdict);
      const text = facts.weighed.body.generate_text;
      if (typeof text === 'string') this.longestAccepted = Math.max(this.longestAccepted, [...text].length);
      for (const o of optionValues(facts.weighed.body)) this.acceptedOptions.add(o);
      if (facts.space) {
        const heard = this.heard.get(facts.space) ?? new Set<string>();
        heard.add(facts.voice ?? this.defaultVoice);
        this.heard.set(facts.space, heard);
      }
    }
    return out;
  }

  private factsOf(ex: OracleExchange, op: OracleOperation): Facts {
    const apiKey = ex.request.headers[apiKeyHeader.toLowerCase()];
    const key = this.model.keyOf(apiKey);
    const space = key && this.model.spaceOf(key);
    const body = bodyOf(ex.request.json);
    const query = new URLSearchParams(ex.request.path.split('?')[1] ?? '');
    const rawVoice =
      op === 'deleteVoice'
        ? safeDecode(ex.request.path.split('?')[0]?.slice('/v1/voice/'.length) ?? '')
        : typeof body.voice_id === 'string'
          ? body.voice_id
          : undefined;
    const voice =
      rawVoice === undefined ? undefined : op === 'saveVoice' ? normalizeVoiceId(rawVoice) : rawVoice;
    const ref = typeof body.ref_audio === 'string' ? this.refs.get(body.ref_audio) : undefined;
    const weighed: Weighed = {
      op,
      body,
      knownKey: key !== undefined,
      keyPresent: apiKey !== undefined && apiKey !== '',
      cloningKnown: this.model.cloningKnown(apiKey),
      voiceLive: space !== undefined && voice !== undefined && this.model.find(space, voice) !== undefined,
      voiceDeleted:
        space !== undefined &&
        voice !== undefined &&
        !this.model.find(space, voice) &&
        this.model.wasDeleted(space, voice),
      voiceHeard: space !== undefined && (this.heard.get(space)?.has(voice ?? this.defaultVoice) ?? false),
      refKnown: ref !== undefined,
      refForeign: ref !== undefined && key !== undefined && ref.space !== this.model.uploadSpaceOf(key),
      longestAccepted: this.longestAccepted,
      acceptedOptions: this.acceptedOptions,
      query,
    };
    const leftBefore =
      key && this.knownAccounts.has(key.account) ? this.model.remaining(key.account) : undefined;
    return { ex, op, key, space, voice, weighed, leftBefore };
  }

  private mapRef(json: unknown): unknown {
    const body = bodyOf(json);
    if (typeof body.ref_audio !== 'string') return json;
    const ref = this.refs.get(body.ref_audio);
    return ref ? { ...body, ref_audio: ref.key } : json;
  }

  private compareStatus(f: Facts, m: ModelAnswer, verdict: (r: OracleRule, seen: string) => void): void {
    const dep = f.ex.answer;
    const depCode = envelopeOf(dep.json).code;
    const side = `deployment: ${shown(dep.status, depCode)}; model: ${shown(m.status, m.code)}`;
    if (dep.status >= 500) {
      verdict(oracleRules.serverError, `${side}: a 5xx is never the contract's answer to this request`);
      return;
    }
    if (ok(dep.status) && !ok(m.status)) {
      if (!acceptedExplained(f.weighed, m.status, m.code))
        verdict(oracleRules.accepted, `${side}: the deployment accepted what the model refuses`);
    } else if (!ok(dep.status) && ok(m.status)) {
      if (!refusedExplained(f.weighed, dep.status, depCode))
        verdict(oracleRules.refused, `${side}: the deployment refused what the model accepts`);
    } else if (!ok(dep.status) && !ok(m.status) && depCode !== m.code && codeStated(f.weighed, m.code)) {
      verdict(oracleRules.errorCode, `${side}: the spec states error_code ${m.code} here`);
    } else if (!ok(dep.status) && !ok(m.status) && depCode === m.code) {
      const stated = statusStated(f.weighed, m.code, m.status);
      if (stated !== undefined && stated !== dep.status)
        verdict(oracleRules.statusOfCode, `${side}: the spec states HTTP ${stated} for error_code ${m.code}`);
    }
  }

  /** A JSON answer's `succeed` says what its status says (§2.1). */
  private compareSucceed(f: Facts, verdict: (r: OracleRule, seen: string) => void): void {
    const { status, json } = f.ex.answer;
    const succeed = envelopeOf(json).succeed;
    if (json === undefined || succeed === undefined || succeed === ok(status)) return;
    verdict(
      oracleRules.succeed,
      `deployment: HTTP ${status} with succeed ${succeed}; model: succeed ${ok(status)} for HTTP ${status}`,
    );
  }

  /** Each accepted upload answers an object key no earlier upload was given (§2.2). */
  private compareObjectKey(f: Facts, verdict: (r: OracleRule, seen: string) => void): void {
    const key = envelopeOf(f.ex.answer.json).data?.object_key;
    if (typeof key !== 'string') return;
    const earlier = this.objectKeys.get(key);
    if (earlier !== undefined)
      verdict(
        oracleRules.objectKeyReused,
        `deployment: object_key ${JSON.stringify(key)} again (first given by exchange ${earlier}); model: a new object key for each stored file`,
      );
    else if (this.objectKeys.size < 10_000) this.objectKeys.set(key, f.ex.seq);
  }

  /** Make the model's state the deployment's after a write. */
  private async follow(f: Facts, m: ModelAnswer, before: ReturnType<ShadowModel['snapshot']>): Promise<void> {
    const dep = f.ex.answer;
    const depOk = ok(dep.status);
    if (f.op === 'uploadFile') {
      const depKey = envelopeOf(dep.json).data?.object_key;
      const modelKey = envelopeOf(m.json).data?.object_key;
      if (depOk && typeof depKey === 'string' && typeof modelKey === 'string' && f.key)
        this.refs.set(depKey, { key: modelKey, space: this.model.uploadSpaceOf(f.key) });
      return;
    }
    if (!f.key || !f.space) return;
    if (f.op === 'saveVoice' && f.weighed.voiceLive) this.coverage.note('a save of an id that exists');
    if (f.op === 'saveVoice' && !f.key.capabilities.voiceCloning)
      this.coverage.note('a save by a key without Voice Cloning');
    if (dep.status >= 500) {
      // What a 5xx did is unknown: back to before, and the next walk shows the deployment's state.
      if (ok(m.status)) await this.model.restore(before);
      this.knownScopes.delete(f.space);
      this.knownAccounts.delete(f.key.account);
      return;
    }
    if (!depOk && ok(m.status)) await this.model.restore(before);
    if (f.op === 'saveVoice') {
      if (depOk && !ok(m.status) && f.voice && !f.weighed.voiceLive)
        await this.model.adopt(f.key, f.voice, Math.floor(f.ex.at / 1000), true);
      if (depOk) {
        this.walks.noteWrite(f.space);
        if (f.leftBefore !== undefined) this.coverage.note(creationState(f.leftBefore));
      } else this.refusedSaveSinceList.add(f.space);
    } else if (f.op === 'deleteVoice' && depOk) {
      if (f.voice) this.heard.get(f.space)?.delete(f.voice);
      if (!ok(m.status) && f.voice) await this.model.forget(f.key, f.voice);
      this.walks.noteWrite(f.space);
      this.deleteSinceList.add(f.space);
    }
  }

  private async comparePage(f: Facts, verdict: (r: OracleRule, seen: string) => void): Promise<void> {
    const { key, space } = f;
    const data = envelopeOf(f.ex.answer.json).data;
    const size = pageSizeOf(f.weighed.query);
    if (!key || !space || !data || !Array.isArray(data.list)) return;
    await this.compareFreeUses(key, data.remainingFreeCloneCount, verdict);
    const items = data.list.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    const ids = items.map((v) => v.voice_id).filter((id): id is string => typeof id === 'string');
    for (const item of items) await this.compareListed(key, space, item, verdict);
    if (size === undefined) return;
    const cursor = f.weighed.query.get('voice_id');
    const walk = this.walks.walkOf(
      space,
      cursor,
      size,
      () => new Set(this.model.live(space).map((v) => v.voiceId)),
    );
    if (!walk) return;
    const comparable = this.walks.comparable(walk);
    const known = this.knownScopes.has(space);
    const n = this.model.live(space).length;
    const more = data.has_more === true;
    if (comparable && known) {
      const expected = Math.max(0, Math.min(size, n - walk.page * size));
      const expectMore = n > (walk.page + 1) * size;
      if (
        ids.length !== expected ||
        more !== expectMore ||
        (typeof data.total === 'number' && data.total !== expected)
      )
        verdict(
          oracleRules.page,
          `deployment: page ${walk.page + 1} of size ${size} lists ${ids.length} voice(s), total ${String(data.total)}, has_more ${String(data.has_more)}; model: ${n} voice(s) in the scope, so ${expected} and has_more ${expectMore}`,
        );
    } else if (comparable && more && ids.length < size)
      // Whatever the voices are, a page of an unchanged list that says more follows is full.
      verdict(
        oracleRules.page,
        `deployment: page ${walk.page + 1} of size ${size} lists ${ids.length} voice(s) and has_more true; model: a page before the last is full`,
      );
    else if (comparable && walk.page > 0 && ids.length === 0)
      // Whatever the oracle knows of the scope: has_more true promised this page voices.
      verdict(
        oracleRules.page,
        `deployment: page ${walk.page + 1} of size ${size} is empty after page ${walk.page} said has_more true; model: has_more is true only when more voices follow`,
      );
    // Whatever the model knows of the scope: an unchanged list shows each voice once in a walk (a walk
    // that comes back to its first voice never ends).
    const repeated = comparable ? ids.filter((id, i) => walk.seen.includes(id) || ids.indexOf(id) !== i) : [];
    if (repeated.length > 0)
      verdict(
        oracleRules.walkRepeats,
        `deployment: ${JSON.stringify(repeated)} listed again in one walk; model: an unchanged list shows each voice once`,
      );
    if (walk.page === 0) for (const s of listStates(n, size)) this.coverage.note(s);
    if (walk.page > 0 && !comparable) this.coverage.note('a cursor page after a write');
    if (this.deleteSinceList.delete(space)) this.coverage.note('a delete between lists');
    if (this.refusedSaveSinceList.delete(space)) this.coverage.note('a refused save seen by a list');
    const next = more && typeof data.next_voice_id === 'string' ? data.next_voice_id : undefined;
    const after = this.walks.advance(walk, ids, next);
    if (more) return;
    await this.compareWalk(after, comparable, space, verdict);
  }

  /** A walk ended: every voice live throughout it was listed. */
  private async compareWalk(
    walk: { seen: readonly string[]; liveAtStart: ReadonlySet<string> },
    comparable: boolean,
    space: string,
    verdict: (r: OracleRule, seen: string) => void,
  ): Promise<void> {
    const seen = new Set(walk.seen);
    const live = this.model.live(space).map((v) => v.voiceId);
    const gone = live.filter((id) => !seen.has(id) && (comparable || walk.liveAtStart.has(id)));
    for (const id of gone.filter((id) => !this.own(id))) await this.model.forgetIn(space, id);
    const missing = gone.filter((id) => this.own(id));
    if (missing.length > 0)
      verdict(
        oracleRules.walkMissing,
        `deployment: a complete walk of ${seen.size} voice(s) leaves out ${JSON.stringify(missing.slice(0, 5))}; model: they were saved and not deleted`,
      );
    if (comparable) this.knownScopes.add(space);
  }

  private async compareListed(
    key: KeyConfig,
    space: string,
    item: Record<string, unknown>,
    verdict: (r: OracleRule, seen: string) => void,
  ): Promise<void> {
    const id = item.voice_id;
    if (typeof id !== 'string') return;
    const createdAt = typeof item.created_at === 'number' ? item.created_at : undefined;
    const record = this.model.find(space, id);
    if (record) {
      if (createdAt !== undefined && Math.abs(createdAt - record.createdAt) > this.tolerance)
        verdict(
          oracleRules.createdAt,
          `deployment: ${JSON.stringify(id)} created_at ${createdAt}; model: ${record.createdAt} (the save's time), ${Math.abs(createdAt - record.createdAt)} s apart`,
        );
      return;
    }
    if (!this.own(id)) {
      await this.model.adopt(key, id, createdAt ?? Math.floor(this.model.service.clock.now() / 1000), false);
      return;
    }
    if (this.model.wasDeleted(space, id)) {
      verdict(oracleRules.listedUnknown, `deployment: lists ${JSON.stringify(id)}; model: it was deleted`);
      return;
    }
    const elsewhere = this.model.elsewhere(space, id);
    if (elsewhere) {
      verdict(
        oracleRules.listedUnknown,
        `deployment: lists ${JSON.stringify(id)}; model: it is a voice of ${elsewhere}`,
      );
      return;
    }
    if (this.knownScopes.has(space)) {
      verdict(oracleRules.listedUnknown, `deployment: lists ${JSON.stringify(id)}; model: no save made it`);
      return;
    }
    await this.model.adopt(key, id, createdAt ?? Math.floor(this.model.service.clock.now() / 1000), false);
  }

  private async compareFreeUses(
    key: KeyConfig,
    shownLeft: unknown,
    verdict: (r: OracleRule, seen: string) => void,
  ) {
    if (typeof shownLeft !== 'number' || !Number.isInteger(shownLeft)) return;
    const left = this.model.remaining(key.account);
    if (shownLeft < 0)
      verdict(
        oracleRules.freeUses,
        `deployment: remainingFreeCloneCount ${shownLeft}; model: a count of free uses never goes below 0`,
      );
    else if (this.knownAccounts.has(key.account) && left !== shownLeft)
      verdict(
        oracleRules.freeUses,
        `deployment: remainingFreeCloneCount ${shownLeft}; model: ${left} (from the count first shown and the creations since)`,
      );
    this.knownAccounts.add(key.account);
    await this.model.setRemaining(key.account, shownLeft);
    this.coverage.note(freeUsesState(shownLeft));
  }

  private compareAudio(f: Facts, m: ModelAnswer, verdict: (r: OracleRule, seen: string) => void): void {
    const dep = f.ex.answer.audio;
    const asked = f.weighed.body.audio_format;
    if (!dep) return;
    if (typeof asked === 'string' && ['wav', 'mp3', 'pcm'].includes(asked) && dep.kind !== asked)
      verdict(oracleRules.format, `deployment: ${dep.kind} audio; asked for ${asked}`);
    const mine = ok(m.status) ? m.audio?.seconds : undefined;
    if (dep.seconds === undefined || mine === undefined || mine <= 0 || f.weighed.body.speed !== undefined)
      return;
    if (dep.seconds < mine / 4 || dep.seconds > mine * 4)
      verdict(
        oracleRules.duration,
        `deployment: ${dep.seconds.toFixed(2)} s of audio; model: ${mine.toFixed(2)} s for the same text`,
      );
  }

  close(): Promise<void> {
    return this.model.close();
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * An oracle for one deployment's traffic: the model starts empty and adopts what the deployment shows.
 *
 * @example
 * const oracle = await createOracle({ keys: { [apiKey]: { organization: 'org', project: 'p', environment: 'env' } } });
 * const verdicts = await oracle.observe({ seq: 1, at: Date.now(), request, answer });
 */
export async function createOracle(options: OracleOptions, startMs: number = Date.now()): Promise<Oracle> {
  const model = await ShadowModel.create({
    keys: options.keys,
    profile: options.profile,
    seed: options.seed ?? 1,
    startMs,
  });
  return new DifferentialOracle(model, options);
}
