/**
 * Reading a calibration profile: `parseProfile(value)` checks a parsed JSON value against types.ts and
 * the catalogue of points.ts, strictly (an unknown field is refused: a typo must not quietly leave the
 * mock on its own choice), and gives back a Profile holding only the known fields. Every refusal is a
 * `ProfileError` whose one-line message names the field, e.g.
 * `points["list-order"].choice.order: "random" is not one of oldest-first, newest-first`.
 */
import { nearest } from '../common/did-you-mean.js';
import { dataHeaderProblem } from '../common/header-names.js';
import { jsonTextTooDeep, valueTooDeep } from '../common/json-depth.js';
import { oneLine } from '../common/one-line.js';
import { audioMediaTypes } from '../openapi/contract.js';
import { type ChoiceShape, isPointId, type PointId, pointIds, points } from './points.js';
import type { Choice, Evidence, Profile, ProfileEntry } from './types.js';
import { profileKind, profileVersion } from './types.js';

/** A profile the kit refuses: `field` is the path of the first bad field (`points["list-order"].choice`). */
export class ProfileError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const refuse = (field: string, problem: string): never => {
  throw new ProfileError(`${field}: ${problem}`, field);
};

/** How a value is shown in a message: JSON, cut short (the depth was checked before: it cannot recurse far). */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? 'an array' : typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** ` (did you mean "list-order"?)` for a near miss, else nothing. */
function hint(input: string, known: readonly string[]): string {
  const [near] = nearest(input, known, { maxDistance: 3 });
  return near ? ` (did you mean "${near}"?)` : '';
}

/** The object at `field`, with no fields beyond `known` and every one of `required`. */
function object(
  value: unknown,
  field: string,
  known: readonly string[],
  required: readonly string[] = [],
): Obj {
  if (!isObject(value)) return refuse(field, `expected an object, got ${shown(value)}`);
  for (const name of Object.keys(value))
    if (!known.includes(name))
      refuse(`${field}.${name}`, `unknown field${hint(name, known)}; known: ${known.join(', ')}`);
  for (const name of required) if (!(name in value)) refuse(`${field}.${name}`, 'missing');
  return value;
}

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    return refuse(field, `expected an integer from ${min} to ${max}, got ${shown(value)}`);
  return value;
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return refuse(field, `${shown(value)} is not one of ${allowed.join(', ')}`);
}

function boolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') return refuse(field, `expected true or false, got ${shown(value)}`);
  return value;
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string') return refuse(field, `expected a string, got ${shown(value)}`);
  return value;
}

/** An HTTP status of a refusal: 400..499, and not 429 (a rate limit says nothing of the request). */
function refusalStatus(value: unknown, field: string): number {
  const status = integer(value, field, 400, 499);
  if (status === 429)
    refuse(field, '429 is a rate limit, not a refusal of the request; expected 400 to 499 but 429');
  return status;
}

/** A header name that may carry data: a valid token, and no framing, hop-by-hop, cookie or CORS header. */
function headerName(value: unknown, field: string): string {
  const name = string(value, field);
  const problem = dataHeaderProblem(name);
  if (problem !== undefined) refuse(field, problem);
  return name;
}

const formats = Object.keys(audioMediaTypes) as (keyof typeof audioMediaTypes)[];
const bounds = ['inclusive', 'exclusive'] as const;

/** The largest `max-text-length` a profile may give (the JSON body cap grows with it). */
export const maxTextLengthCeiling = 1_000_000;

/** How deep and how large a `data` choice may be: every answer it shapes is built from it. */
export const dataLimits = { depth: 32, bytes: 64 * 1024 } as const;

/**
 * How deep a whole profile may nest: a data choice's levels and the few above it. Checked before any
 * field is read, so that nothing recursive (JSON.stringify of a message, a clone) meets a deeper one.
 */
export const profileMaxDepth = dataLimits.depth + 16;

/** How many unsettled points, choices of one, and pieces of evidence a profile may hold. */
export const unsettledLimits = { points: 64, choices: 256, evidence: 4096 } as const;

/** A `data` choice within dataLimits, walked without recursion (a hostile one may be deep). */
function checkDataSize(data: unknown, field: string): void {
  const stack: [unknown, number][] = [[data, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, depth] = item;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > dataLimits.depth) refuse(field, `nested deeper than ${dataLimits.depth} levels`);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  const bytes = JSON.stringify(data).length;
  if (bytes > dataLimits.bytes)
    refuse(field, `${bytes} characters of JSON; a data choice holds at most ${dataLimits.bytes}`);
}

function refusalChoice(c: Obj, field: string): Choice {
  object(c, field, ['status', 'error_code'], ['status', 'error_code']);
  return {
    status: refusalStatus(c.status, `${field}.status`),
    error_code: integer(c.error_code, `${field}.error_code`, 1, Number.MAX_SAFE_INTEGER),
  };
}

/** Each shape's check, from the raw `choice` object at `field`. */
const choiceChecks: Record<ChoiceShape, (c: Obj, field: string) => Choice> = {
  refusal: refusalChoice,
  status: (c, field) => {
    object(c, field, ['status'], ['status']);
    return { status: integer(c.status, `${field}.status`, 400, 499) };
  },
  data: (c, field) => {
    object(c, field, ['data'], ['data']);
    // §2.1: `data` is an object or null; the conformance judge holds a deployment to it too.
    if (c.data !== null && !isObject(c.data))
      refuse(`${field}.data`, `expected an object or null (§2.1), got ${shown(c.data)}`);
    checkDataSize(c.data, `${field}.data`);
    return { data: structuredClone(c.data) };
  },
  'delete-missing': (c, field) => {
    if (isObject(c) && c.status === 200) {
      object(c, field, ['status'], ['status']);
      return { status: 200 };
    }
    return refusalChoice(c, field);
  },
  'list-order': (c, field) => {
    object(c, field, ['order'], ['order']);
    return { order: oneOf(c.order, `${field}.order`, ['oldest-first', 'newest-first'] as const) };
  },
  'pcm-headers': (c, field) => {
    const names = ['sampleRate', 'channels', 'bitDepth'] as const;
    object(c, field, names, names);
    const [sampleRate, channels, bitDepth] = names.map((n) => headerName(c[n], `${field}.${n}`));
    const lower = [sampleRate, channels, bitDepth].map((n) => n?.toLowerCase());
    if (new Set(lower).size !== 3) refuse(field, 'the three header names must differ');
    return { sampleRate: sampleRate as string, channels: channels as string, bitDepth: bitDepth as string };
  },
  'default-format': (c, field) => {
    object(c, field, ['complete', 'stream']);
    if (c.complete === undefined && c.stream === undefined)
      refuse(field, 'expected complete, stream or both');
    return {
      ...(c.complete === undefined ? {} : { complete: oneOf(c.complete, `${field}.complete`, formats) }),
      ...(c.stream === undefined ? {} : { stream: oneOf(c.stream, `${field}.stream`, formats) }),
    };
  },
  'text-alias': (c, field) => {
    object(c, field, ['accepted'], ['accepted']);
    return { accepted: boolean(c.accepted, `${field}.accepted`) };
  },
  'max-text-length': (c, field) => {
    object(c, field, ['characters'], ['characters']);
    return { characters: integer(c.characters, `${field}.characters`, 1, maxTextLengthCeiling) };
  },
  'retry-after': (c, field) => {
    object(c, field, ['header'], ['header']);
    return { header: boolean(c.header, `${field}.header`) };
  },
  'duration-bounds': (c, field) => {
    object(c, field, ['shortest', 'longest']);
    if (c.shortest === undefined && c.longest === undefined)
      refuse(field, 'expected shortest, longest or both');
    return {
      ...(c.shortest === undefined ? {} : { shortest: oneOf(c.shortest, `${field}.shortest`, bounds) }),
      ...(c.longest === undefined ? {} : { longest: oneOf(c.longest, `${field}.longest`, bounds) }),
    };
  },
};

/**
 * The choice of one point, checked against its shape.
 *
 * @example parseChoice('list-order', { order: 'newest-first' }) // { order: 'newest-first' }
 */
export function parseChoice(
  id: PointId,
  value: unknown,
  field = `points[${JSON.stringify(id)}].choice`,
): Choice {
  if (!isObject(value)) return refuse(field, `expected an object, got ${shown(value)}`);
  return choiceChecks[points[id].shape](value, field);
}

function evidence(value: unknown, field: string): Evidence {
  const e = object(
    value,
    field,
    ['exchange', 'method', 'path', 'status', 'error_code', 'case'],
    ['exchange', 'method', 'path', 'status'],
  );
  return {
    exchange: integer(e.exchange, `${field}.exchange`, 0, Number.MAX_SAFE_INTEGER),
    method: string(e.method, `${field}.method`),
    path: string(e.path, `${field}.path`),
    status: integer(e.status, `${field}.status`, 0, 599),
    ...(e.error_code === undefined
      ? {}
      : { error_code: integer(e.error_code, `${field}.error_code`, 0, Number.MAX_SAFE_INTEGER) }),
    ...(e.case === undefined ? {} : { case: string(e.case, `${field}.case`) }),
  };
}

function entry(id: PointId, value: unknown, field: string): ProfileEntry {
  const e = object(value, field, ['question', 'choice', 'evidence'], ['question', 'choice']);
  const { question } = points[id];
  if (e.question !== question)
    refuse(
      `${field}.question`,
      `${shown(e.question)} is not the question of this point (${shown(question)})`,
    );
  const choice = parseChoice(id, e.choice, `${field}.choice`);
  if (e.evidence === undefined) return { question, choice };
  if (!Array.isArray(e.evidence)) refuse(`${field}.evidence`, `expected an array, got ${shown(e.evidence)}`);
  const list = (e.evidence as unknown[]).map((item, i) => evidence(item, `${field}.evidence[${i}]`));
  return { question, choice, evidence: list };
}

function pointsOf(value: unknown): Profile['points'] {
  if (!isObject(value)) return refuse('points', `expected an object of points by id, got ${shown(value)}`);
  const out: Partial<Record<PointId, ProfileEntry>> = {};
  for (const [id, item] of Object.entries(value)) {
    const field = `points[${JSON.stringify(id)}]`;
    if (!isPointId(id)) refuse(field, `unknown point${hint(id, pointIds)}`);
    out[id as PointId] = entry(id as PointId, item, field);
  }
  return out;
}

/** A list of at most `max` items at `field`, each read by `item`. */
function list<T>(value: unknown, field: string, max: number, item: (v: unknown, f: string) => T): T[] {
  if (!Array.isArray(value)) return refuse(field, `expected an array, got ${shown(value)}`);
  if (value.length > max) refuse(field, `${value.length} items; at most ${max}`);
  return value.map((v, i) => item(v, `${field}[${i}]`));
}

/**
 * `unsettled`: points seen answered two ways, each `{ point, choices, evidence }`. Checked like the rest
 * (a known point, choices as objects, evidence as evidence), though never applied.
 */
function checkUnsettled(value: unknown): void {
  list(value, 'unsettled', unsettledLimits.points, (item, field) => {
    const u = object(item, field, ['point', 'choices', 'evidence'], ['point', 'choices', 'evidence']);
    if (typeof u.point !== 'string' || !isPointId(u.point))
      refuse(`${field}.point`, `unknown point ${shown(u.point)}`);
    list(u.choices, `${field}.choices`, unsettledLimits.choices, (c, f) => {
      if (!isObject(c)) refuse(f, `expected an object, got ${shown(c)}`);
    });
    list(u.evidence, `${field}.evidence`, unsettledLimits.evidence, evidence);
  });
}

function observedOf(value: unknown): Profile['observed'] {
  const o = object(value, 'observed', ['by', 'target', 'at', 'kit']);
  return {
    ...(o.by === undefined ? {} : { by: oneOf(o.by, 'observed.by', ['conformance', 'proxy'] as const) }),
    ...(o.target === undefined ? {} : { target: string(o.target, 'observed.target') }),
    ...(o.at === undefined ? {} : { at: string(o.at, 'observed.at') }),
    ...(o.kit === undefined ? {} : { kit: string(o.kit, 'observed.kit') }),
  };
}

/**
 * Checks a parsed JSON value as a profile; throws a ProfileError naming the first bad field. `unsettled`
 * (points seen answered two ways) is read and left out: it is never applied.
 *
 * @example
 * const profile = parseProfile(JSON.parse(text)); // ProfileError: points["list-ordr"]: unknown point (did you mean "list-order"?)
 */
export function parseProfile(value: unknown): Profile {
  if (valueTooDeep(value, profileMaxDepth)) refuse('profile', `nested deeper than ${profileMaxDepth} levels`);
  const p = object(value, 'profile', ['kind', 'version', 'observed', 'points', 'unsettled', '$schema']);
  if (p.kind !== profileKind) refuse('kind', `expected "${profileKind}", got ${shown(p.kind)}`);
  if (p.version !== profileVersion)
    refuse('version', `${shown(p.version)} is not a version this kit reads (${profileVersion})`);
  if (p.points === undefined) refuse('points', 'missing');
  if (p.unsettled !== undefined) checkUnsettled(p.unsettled);
  return {
    kind: profileKind,
    version: profileVersion,
    ...(p.observed === undefined ? {} : { observed: observedOf(p.observed) }),
    points: pointsOf(p.points),
  };
}

/**
 * Parses the text of a profile file: a JSON syntax error is a ProfileError too, with its position.
 *
 * @example parseProfileText('{"kind": "voice-kit-profile", "version": 1, "points": {}}')
 */
export function parseProfileText(text: string): Profile {
  if (jsonTextTooDeep(text, profileMaxDepth))
    throw new ProfileError(`nested deeper than ${profileMaxDepth} levels`, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(`not JSON: ${oneLine((error as Error).message)}`, '');
  }
  return parseProfile(value);
}
