/**
 * The profile recorder: fed every finished exchange (`see`), it keeps what each shows of the points the
 * spec leaves open and writes them as a Profile (`profile()`): only the points seen, each with its
 * evidence; a point seen answered two ways goes to `unsettled`, never into `points`. The suite passes a
 * hint with each probe (the point it asks about); the proxy passes none, and then only what the facts
 * leave no doubt about is read (classify.ts). Platform-free; the suite and the proxy share it.
 */
import { apiKeyOf, type ExchangeFacts, errorCodeOf, isObject, jsonObject } from '../judge/exchange.js';
import { classify } from './classify.js';
import { type PointId, pointIds, points } from './points.js';
import { readChoice, type SeenFacts } from './read-choice.js';
import { type LengthRun, SessionMemory } from './session-memory.js';
import {
  type Choice,
  type Evidence,
  type Profile,
  type ProfileEntry,
  profileKind,
  profileVersion,
  type UnsettledPoint,
} from './types.js';

export type { SeenFacts } from './read-choice.js';

/** What the sender knows of an exchange: the point it probes (and which part of it), its case. */
export interface ProbeHint {
  readonly point?: PointId;
  /** The part of a several-part choice: `shortest` / `longest` for the duration bounds. */
  readonly aspect?: string;
  readonly case?: string;
}

export interface ProfileRecorder {
  /** An exchange that ended with an answer; `facts.operationId` undefined for a path or method no operation has. */
  see(facts: SeenFacts, hint?: ProbeHint): void;
  /** The profile of everything seen so far. */
  profile(observed?: Profile['observed']): Profile;
}

/** Evidence kept per choice, and distinct choices kept per point part (answers with timestamps vary). */
const evidencePerChoice = 5;
const choicesPerPart = 8;
const maxPath = 2048;

interface Seen {
  readonly choice: Choice;
  readonly evidence: Evidence[];
}

/** point → part ('' for a one-part choice) → JSON of the choice → what showed it. */
type Store = Map<PointId, Map<string, Map<string, Seen>>>;

function evidenceOf(f: SeenFacts, hint: ProbeHint | undefined): Evidence {
  const code = errorCodeOf(f as ExchangeFacts);
  return {
    exchange: f.seq,
    method: f.method,
    // A path is the client's to make long: evidence keeps its start.
    path: f.path.length > maxPath ? `${f.path.slice(0, maxPath)}…` : f.path,
    status: f.status,
    ...(code === undefined ? {} : { error_code: code }),
    ...(hint?.case ? { case: hint.case } : {}),
  };
}

function put(store: Store, point: PointId, choice: Choice, evidence: readonly Evidence[]): void {
  // A several-part choice (default format per endpoint, duration bounds) is settled part by part.
  const part =
    points[point].shape === 'default-format' || points[point].shape === 'duration-bounds'
      ? Object.keys(choice).join()
      : '';
  const parts = store.get(point) ?? new Map<string, Map<string, Seen>>();
  store.set(point, parts);
  const choices = parts.get(part) ?? new Map<string, Seen>();
  parts.set(part, choices);
  const key = JSON.stringify(choice);
  const seen = choices.get(key) ?? { choice, evidence: [] };
  if (!choices.has(key)) {
    if (choices.size >= choicesPerPart) return;
    choices.set(key, seen);
  }
  for (const e of evidence) if (seen.evidence.length < evidencePerChoice) seen.evidence.push(e);
}

/**
 * The list order this page shows of voices whose save order the session knows. Where the pairs
 * disagree, only voices created in different seconds are compared: a deployment ordering by created_at
 * breaks ties its own way (by id, say), which says nothing of its order.
 */
function listOrders(f: SeenFacts, memory: SessionMemory): Set<'oldest-first' | 'newest-first'> {
  const data = jsonObject(f.responseJson)?.data;
  const list = isObject(data) && Array.isArray(data.list) ? data.list : [];
  const key = apiKeyOf(f as ExchangeFacts);
  const known: Array<{ readonly order: number; readonly created: unknown }> = [];
  for (const item of list) {
    const order =
      isObject(item) && typeof item.voice_id === 'string' ? memory.liveOrder(key, item.voice_id) : undefined;
    if (order !== undefined && isObject(item)) known.push({ order, created: item.created_at });
  }
  const directions = (distinctSeconds: boolean) => {
    const seen = new Set<'oldest-first' | 'newest-first'>();
    known.forEach((b, i) => {
      const a = known[i - 1];
      if (!a || (distinctSeconds && a.created === b.created)) return;
      seen.add(b.order > a.order ? 'oldest-first' : 'newest-first');
    });
    return seen;
  };
  const all = directions(false);
  return all.size > 1 ? (directions(true).size === 1 ? directions(true) : all) : all;
}

/**
 * max-text-length from one kind of request: N accepted and N + 1 refused, and the pair of that refusal
 * (a much longer text may be refused by another rule first, a body cap).
 */
function textLength(store: Store, run: LengthRun): void {
  const accepted = run.accepted;
  const next = accepted && run.refused.get(accepted.characters + 1);
  if (!accepted || !next) return;
  put(store, 'max-text-length', { characters: accepted.characters }, [accepted.evidence, next.evidence]);
  put(store, 'max-text-length/refusal', next.refusal, [next.evidence]);
  // A refusal at or below a length seen accepted: the limit is not one number.
  for (const [characters, r] of run.refused)
    if (characters <= accepted.characters)
      put(store, 'max-text-length', { characters: characters - 1 }, [r.evidence]);
}

/** The store as a profile: settled points in `points`, the rest in `unsettled`. */
function assemble(store: Store, observed: Profile['observed']): Profile {
  const out: Partial<Record<PointId, ProfileEntry>> = {};
  const unsettled: UnsettledPoint[] = [];
  for (const point of pointIds) {
    const parts = store.get(point);
    if (!parts) continue;
    const all = [...parts.values()].flatMap((choices) => [...choices.values()]);
    const evidence = all.flatMap((s) => s.evidence).sort((a, b) => a.exchange - b.exchange);
    if ([...parts.values()].some((choices) => choices.size > 1)) {
      unsettled.push({ point, choices: all.map((s) => s.choice), evidence });
      continue;
    }
    const choice = Object.assign({}, ...all.map((s) => s.choice)) as Choice;
    out[point] = { question: points[point].question, choice, evidence };
  }
  return {
    kind: profileKind,
    version: profileVersion,
    ...(observed ? { observed } : {}),
    points: out,
    ...(unsettled.length > 0 ? { unsettled } : {}),
  };
}

/**
 * A recorder for one run or proxy session.
 *
 * @example
 * const recorder = createProfileRecorder();
 * recorder.see(facts, { point: 'list-errors/unknown-cursor', case: 'list.cursor.unknown' });
 * const profile = recorder.profile({ by: 'conformance' });
 */
export function createProfileRecorder(): ProfileRecorder {
  const store: Store = new Map();
  const memory = new SessionMemory();
  return {
    see(f, hint) {
      const evidence = evidenceOf(f, hint);
      const found = hint?.point ? [{ point: hint.point, aspect: hint.aspect }] : classify(f, memory);
      for (const { point, aspect } of found) {
        const choice = readChoice(point, f, aspect);
        if (choice) put(store, point, choice, [evidence]);
      }
      if (f.operationId === 'listVoices' && f.status === 200)
        for (const order of listOrders(f, memory)) put(store, 'list-order', { order }, [evidence]);
      memory.learn(f, evidence);
    },
    profile(observed) {
      // Lengths are read at the end: N + 1 may be refused before N is accepted (a bisection).
      const copy: Store = new Map(
        [...store].map(([p, parts]) => [p, new Map([...parts].map(([k, c]) => [k, new Map(c)]))]),
      );
      for (const run of memory.lengths.values()) textLength(copy, run);
      return assemble(copy, observed);
    },
  };
}
