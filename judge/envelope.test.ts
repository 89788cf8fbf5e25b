import { describe, expect, it } from 'vitest';
import { envelopeProblems } from './envelope.js';

const ok = { error_code: 0, error_message: '', succeed: true, data: { a: 1 } };
const err = { error_code: 10001, error_message: 'bad', succeed: false, data: null };

describe('envelopeProblems', () => {
  it.each([
    ['a success', ok, 200, false],
    ['a failure', err, 400, false],
    ['delete success with data null', { ...ok, data: null }, 200, true],
  ])('accepts %s', (_, body, status, dataMayBeNull) => {
    expect(envelopeProblems(body, status, { dataMayBeNull })).toEqual([]);
  });

  it.each([
    ['succeed true on an error', { ...err, succeed: true }, 400, /succeed/],
    ['data not null on an error', { ...err, data: {} }, 400, /data/],
    ['error_code 0 on an error', { ...err, error_code: 0 }, 500, /error_code is 0/],
    ['an empty message on an error', { ...err, error_message: '' }, 400, /empty/],
    ['a nonzero code on success', { ...ok, error_code: 1 }, 200, /error_code/],
    ['a message on success', { ...ok, error_message: 'OK' }, 200, /error_message/],
    ['data null on success', { ...ok, data: null }, 200, /data is null/],
    ['a 201 success', ok, 201, /HTTP 200/],
    ['a string error_code', { ...err, error_code: '10001' }, 400, /not an integer/],
    ['a missing data field', { error_code: 0, error_message: '', succeed: true }, 200, /data is missing/],
    ['a non-JSON body', undefined, 400, /not JSON/],
    ['an array body', [ok], 200, /array/],
  ])('flags %s', (_, body, status, pattern) => {
    const problems = envelopeProblems(body, status, { dataMayBeNull: false });
    expect(
      problems.some((p) => pattern.test(p)),
      problems.join('; '),
    ).toBe(true);
  });
});
