import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from '../../common/did-you-mean.js';
import { allCases } from '../cases/index.js';
import { runConformance } from '../run/run-conformance.js';
import { nearestIds } from './only-patterns.js';
import { checkOptions } from './options-check.js';
import type { RunOptions } from './run-options.js';
import { ConformanceSetupError } from './setup-error.js';

const url = 'https://staging.example.com';

describe('runConformance option checks: a mistake throws before anything starts', () => {
  it.each([
    [
      { baseURL: url, apiKey: 'k' },
      /^baseURL is not an option of runConformance \(did you mean baseUrl\?\); options: baseUrl, apiKey/,
    ],
    [{ keys: { otherorg: 'k' } }, /^keys\.otherorg is not a key name \(did you mean otherOrg\?\)/],
    [{ baseUrl: '', apiKey: 'k' }, /^baseUrl is empty: omit it to test the embedded mock/],
    [
      { baseUrl: 'staging.example.com', apiKey: 'k' },
      /^baseUrl "staging.example.com" is not an http\(s\) URL/,
    ],
    [{ baseUrl: url }, /^apiKey is required with baseUrl/],
    [
      { baseUrl: `${url}/v1`, apiKey: 'k' },
      /^baseUrl ends in \/v1\b.*drop it: https:\/\/staging\.example\.com$/,
    ],
    [{ baseUrl: `${url}/v1/`, apiKey: 'k' }, /^baseUrl ends in \/v1\b/],
    [{ include: ['everything'] }, /^include "everything" is not a group/],
    [{ only: 'upload.*' }, /^only must be an array/],
    [{ only: ['upload.*', 'uplaod.*'] }, /^only "uplaod.\*" matches no case id \(nearest: upload\./],
  ])('%j → %s', (options, message) => {
    expect(() => checkOptions(options as unknown as RunOptions, allCases)).toThrow(message);
  });

  it.each([
    [{}],
    [{ apiKey: 'mock-key' }],
    [{ apiKey: 'mock-key', keys: { otherOrg: 'x' } }],
    [{ baseUrl: `${url}/`, apiKey: 'k', only: ['upload.*', 'flac'] }],
  ])('accepts %j (keys without baseUrl replace the embedded mock’s keys)', (options) => {
    expect(() => checkOptions(options, allCases)).not.toThrow();
  });

  it('runConformance rejects with a ConformanceSetupError naming the option', async () => {
    const error = await runConformance({ baseURL: url } as unknown as RunOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceSetupError);
    expect(error).toMatchObject({ option: 'baseURL' });
  });

  it('suggests near names and ids', () => {
    expect(editDistance('flca', 'flac')).toBe(1);
    expect(nearest('--allow-billabel', ['--allow-billable', '--api-key'], { maxDistance: 3 })).toEqual([
      '--allow-billable',
    ]);
    expect(nearest('--zzzz', ['--allow-billable'], { maxDistance: 3 })).toEqual([]);
    expect(nearestIds(allCases, '*flca*').every((id) => id.includes('flac'))).toBe(true);
  });
});
