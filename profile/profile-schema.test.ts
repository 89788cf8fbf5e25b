import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseProfile } from './parse.js';
import { pointIds, points } from './points.js';
import { everyPointProfile } from './test/every-point.js';

interface Schema {
  properties: { points: { properties: Record<string, PointSchema> } };
  $defs: Record<string, unknown>;
}
interface PointSchema {
  properties: { question: { const: string }; choice: { $ref: string } };
}

const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'profile.schema.json'), 'utf8')) as Schema;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/** Whether the schema and the parser both accept `value` (they must agree). */
function verdicts(value: unknown): { schema: boolean; parser: boolean } {
  let parser = true;
  try {
    parseProfile(value);
  } catch {
    parser = false;
  }
  return { schema: validate(value), parser };
}

describe('profile.schema.json', () => {
  it('lists every point of the catalogue, no more, each with its question and choice shape', () => {
    const described = schema.properties.points.properties;
    expect(Object.keys(described).sort()).toEqual([...pointIds].sort());
    for (const id of pointIds) {
      expect(described[id]?.properties.question.const, id).toBe(points[id].question);
      expect(described[id]?.properties.choice.$ref, id).toBe(`#/$defs/${points[id].shape}`);
    }
  });

  it('accepts, as the parser does, a profile of every point', () => {
    const profile = everyPointProfile();
    expect(verdicts(profile)).toEqual({ schema: true, parser: true });
    expect(validate.errors ?? null).toBeNull();
    const withEvidence = {
      ...profile,
      $schema: './profile.schema.json',
      observed: { by: 'proxy', target: 'https://staging', at: '2026-11-25T12:00:00Z', kit: '0.2.0' },
      points: {
        'list-order': {
          question: 'list-order',
          choice: { order: 'newest-first' },
          evidence: [{ exchange: 3, method: 'GET', path: '/v1/voice/list', status: 200, case: 'list.order' }],
        },
      },
      unsettled: [],
    };
    expect(verdicts(withEvidence)).toEqual({ schema: true, parser: true });
  });

  const base = { kind: 'voice-kit-profile', version: 1 };
  it.each([
    [
      'an unknown point',
      { ...base, points: { 'list-ordr': { question: 'list-order', choice: { order: 'newest-first' } } } },
    ],
    [
      'a rate limit as a refusal',
      {
        ...base,
        points: {
          'page-size-out-of-range': {
            question: 'page-size-out-of-range',
            choice: { status: 429, error_code: 1 },
          },
        },
      },
    ],
    [
      'another question',
      { ...base, points: { 'list-order': { question: 'list', choice: { order: 'newest-first' } } } },
    ],
    [
      'a bad header name',
      {
        ...base,
        points: {
          'pcm-header-names': {
            question: 'pcm-header-names',
            choice: { sampleRate: 'a b', channels: 'c', bitDepth: 'd' },
          },
        },
      },
    ],
    [
      'an empty duration choice',
      {
        ...base,
        points: {
          'reference-duration-boundaries': { question: 'reference-duration-boundaries', choice: {} },
        },
      },
    ],
    [
      'data that is not an object',
      { ...base, points: { 'voice-save-data': { question: 'voice-save-data', choice: { data: 'ok' } } } },
    ],
    [
      'a delete refused with 200 and a code',
      {
        ...base,
        points: {
          'delete-response-body/missing': {
            question: 'delete-response-body',
            choice: { status: 200, error_code: 1 },
          },
        },
      },
    ],
    ['version 2', { ...base, version: 2, points: {} }],
    ['an unknown field', { ...base, points: {}, comment: 'x' }],
  ])('refuses, as the parser does, %s', (_what, value) => {
    expect(verdicts(value)).toEqual({ schema: false, parser: false });
  });
});
