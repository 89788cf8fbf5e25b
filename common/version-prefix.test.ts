import { describe, expect, it } from 'vitest';
import { versionPrefixProblem } from './version-prefix.js';

describe('versionPrefixProblem', () => {
  it.each([
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010'],
    ['https://gw.example/voice/v1//', 'https://gw.example/voice'],
    ['https://gw.example/V1', 'https://gw.example'],
  ])('%s: says to drop /v1 and names %s', (href, instead) => {
    const problem = versionPrefixProblem(href);
    expect(problem).toMatch(/^ends in \/v1\b.*drop it/);
    expect(problem?.endsWith(`drop it: ${instead}`)).toBe(true);
  });

  it.each([
    'http://127.0.0.1:4010',
    'http://127.0.0.1:4010/',
    'https://gw.example/voice',
    'https://gw.example/v10',
    'https://gw.example/api-v1x',
    'not a url',
  ])('%s: no problem', (href) => {
    expect(versionPrefixProblem(href)).toBeUndefined();
  });
});
