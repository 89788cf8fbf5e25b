/**
 * Every documented error code and every contract limit has a case that declares it covers it, every
 * observe case names an x-open-question that exists, and case ids are unique and stable in shape.
 */
import { describe, expect, it } from 'vitest';
import { documentedErrorCodes, errors, limits } from '../../openapi/contract.js';
import { openQuestions } from '../../openapi/generated/open-questions.js';
import { allCases } from './index.js';

const coveredCodes = new Set(allCases.flatMap((c) => c.covers?.codes ?? []));
const coveredLimits = new Set(allCases.flatMap((c) => c.covers?.limits ?? []));
const specCodes = [
  ...Object.keys(documentedErrorCodes).map(Number),
  ...Object.values(errors)
    .filter((e) => e.source === 'spec')
    .map((e) => e.code),
];

describe('conformance coverage', () => {
  it.each([...new Set(specCodes)])('documented error code %i has a case', (code) => {
    expect(coveredCodes.has(code)).toBe(true);
  });

  it.each(Object.keys(limits))('limit %s has a case', (name) => {
    expect(coveredLimits.has(name)).toBe(true);
  });

  it('declares only limits that exist', () => {
    expect([...coveredLimits].filter((l) => !(l in limits))).toEqual([]);
  });

  it('gives every observe case an existing open question, and every cited question exists', () => {
    const known = new Set(openQuestions.map((q) => q.id));
    expect(allCases.filter((c) => c.severity === 'observe' && !c.openQuestion).map((c) => c.id)).toEqual([]);
    expect(allCases.filter((c) => c.openQuestion && !known.has(c.openQuestion)).map((c) => c.id)).toEqual([]);
  });

  it('has unique, dotted, kebab-case ids and a § in every section', () => {
    const ids = allCases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+){2,}$/.test(id))).toEqual([]);
    expect(allCases.filter((c) => !c.section.includes('§')).map((c) => c.id)).toEqual([]);
  });
});
