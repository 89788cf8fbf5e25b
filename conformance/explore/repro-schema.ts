/**
 * Reading a reproduction file for --replay: JSON, at most 1 MiB, no `__proto__` / `constructor` /
 * `prototype` key anywhere, and every field as the explorer writes it (a JSON Schema checked by ajv).
 * A file that is not one is a setup error in one line (the CLI exits 2), never a TypeError mid-replay
 * or a verdict drawn from a step that cannot be sent.
 */
import { readFile, stat } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { oneLine } from '../../common/one-line.js';
import { operationIds } from '../../openapi/contract.js';
import { fixtureIds } from '../setup/fixture-source.js';
import { ConformanceSetupError } from '../setup/setup-error.js';
import type { Reproduction } from './reproduction.js';

/** The formats --replay reads: 2 records the preconditions; 1 (before them) is replayed without. */
export const readableFormats = ['voice-kit-explore-repro/1', 'voice-kit-explore-repro/2'] as const;

/** A reproduction is a few KiB; more is not one. */
const maxFileBytes = 2 ** 20;
const keyNames = ['main', 'noClone', 'otherProject', 'otherEnv', 'otherOrg'];
const text = (maxLength: number) => ({ type: 'string', maxLength });
const count = { type: 'integer', minimum: 0, maximum: 2 ** 53 - 1 };

const stepValue = {
  oneOf: [
    text(200),
    {
      type: 'object',
      required: ['from', 'field'],
      additionalProperties: false,
      properties: { from: count, field: { enum: ['object_key', 'next_voice_id'] } },
    },
  ],
};

const step = {
  type: 'object',
  required: ['label', 'op', 'key'],
  additionalProperties: false,
  properties: {
    label: text(500),
    op: { enum: [...operationIds] },
    key: { enum: keyNames },
    voice: text(200),
    pageSize: { type: 'integer', minimum: 0, maximum: 10_000 },
    cursor: stepValue,
    json: {
      type: 'object',
      maxProperties: 32,
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 100_000 },
    },
    refAudio: stepValue,
    upload: {
      type: 'object',
      required: ['role', 'fileName', 'scene'],
      additionalProperties: false,
      properties: {
        role: { enum: Object.keys(fixtureIds) },
        fileName: text(300),
        scene: text(100),
        empty: { type: 'boolean' },
      },
    },
  },
};

const verdict = {
  type: 'object',
  required: ['rule', 'severity', 'section', 'seen'],
  properties: {
    rule: text(200),
    severity: { enum: ['must', 'should', 'observe'] },
    section: text(100),
    seen: text(10_000),
  },
};

const preconditions = {
  type: 'object',
  required: ['keys'],
  additionalProperties: false,
  properties: {
    keys: { type: 'array', maxItems: keyNames.length, uniqueItems: true, items: { enum: keyNames } },
    remainingFreeCloneCount: count,
    voices: {
      type: 'object',
      required: ['count', 'exact'],
      additionalProperties: false,
      properties: { count, exact: { type: 'boolean' } },
    },
  },
};

const schema = {
  type: 'object',
  required: ['format', 'seed', 'baseUrl', 'verdicts', 'acceptedTextLength', 'steps'],
  additionalProperties: false,
  properties: {
    format: { enum: [...readableFormats] },
    seed: count,
    baseUrl: text(2_000),
    verdicts: { type: 'array', minItems: 1, maxItems: 100, items: verdict },
    acceptedTextLength: count,
    steps: { type: 'array', minItems: 1, maxItems: 500, items: step },
    preconditions,
  },
};

const validate = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true }).compile<Reproduction>(
  schema,
);

/** Keys that would reach an object's prototype when the file's objects are used. */
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The reproduction in `file`; throws a ConformanceSetupError (option `replay`) in one line when it is
 * missing, too large, not JSON, or not a reproduction the explorer writes.
 *
 * @example
 * const repro = await readReproduction('reports/conformance/explore-repro.json');
 */
export async function readReproduction(file: string): Promise<Reproduction> {
  const refuse = (why: string) => new ConformanceSetupError('replay', `${file}: ${why}`);
  let raw: string;
  try {
    const size = (await stat(file)).size;
    if (size > maxFileBytes)
      throw refuse(`${size} bytes, more than a reproduction (${maxFileBytes} at most)`);
    raw = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof ConformanceSetupError) throw e;
    throw refuse((e as NodeJS.ErrnoException).code ?? (e as Error).message);
  }
  if (raw.length > maxFileBytes) throw refuse(`more than ${maxFileBytes} bytes: not a reproduction`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw, (key, value: unknown) => {
      if (forbiddenKeys.has(key)) throw refuse(`the key ${JSON.stringify(key)} is not allowed anywhere`);
      return value;
    });
  } catch (e) {
    if (e instanceof ConformanceSetupError) throw e;
    throw refuse(`not JSON (${oneLine((e as Error).message)})`);
  }
  if (!validate(parsed)) {
    const error = validate.errors?.[0];
    const at = error?.instancePath ? error.instancePath : '(the file)';
    throw refuse(
      `not a reproduction of --explore (format ${readableFormats.at(-1)}): ${at} ${error?.message ?? 'is invalid'}`,
    );
  }
  // Format 2 records what the verdict depends on: it must be there.
  if (parsed.format === 'voice-kit-explore-repro/2' && parsed.preconditions === undefined)
    throw refuse('format 2 without its preconditions: not a reproduction the explorer wrote');
  const steps = parsed.steps;
  for (const [i, s] of steps.entries())
    for (const v of [s.cursor, s.refAudio])
      if (typeof v === 'object' && v.from >= i)
        throw refuse(`/steps/${i} takes a value from step ${v.from + 1}, which does not come before it`);
  return parsed;
}
