import { describe, expect, it } from 'vitest';
import { errorText, networkCause } from './preflight.js';

/** An error shaped like undici's: "fetch failed" with the reason in `cause`. */
const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
const sysError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('the cause of a network error, dug out of undici’s "fetch failed"', () => {
  it.each([
    [
      fetchFailed(sysError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:4010')),
      'connect ECONNREFUSED 127.0.0.1:4010',
    ],
    [
      fetchFailed(sysError('ENOTFOUND', 'getaddrinfo ENOTFOUND staging.example.test')),
      'getaddrinfo ENOTFOUND staging.example.test',
    ],
    [
      fetchFailed(
        Object.assign(new AggregateError([sysError('ECONNREFUSED', 'connect ECONNREFUSED ::1:4010')], ''), {
          code: 'ECONNREFUSED',
        }),
      ),
      'connect ECONNREFUSED ::1:4010',
    ],
    [
      fetchFailed(sysError('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error')),
      'UND_ERR_CONNECT_TIMEOUT (Connect Timeout Error)',
    ],
    [
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'no answer within 20 s (timeout)',
    ],
    [
      fetchFailed(new Error('bad port')),
      'the port is one fetch refuses to connect to (a blocked port of the Fetch standard)',
    ],
    [new TypeError('Failed to parse URL from x/v1/voice/list'), 'Failed to parse URL from x/v1/voice/list'],
    [fetchFailed(undefined), 'TypeError: fetch failed'],
  ])('%s → %s', (error, text) => {
    expect(networkCause(error)).toBe(text);
  });
});

describe('the text of an error a case threw', () => {
  it.each([
    [
      fetchFailed(sysError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:4010')),
      'fetch failed: connect ECONNREFUSED 127.0.0.1:4010',
    ],
    [fetchFailed(undefined), 'fetch failed'],
    [
      new Error('the list answered 500', { cause: new Error('socket hang up') }),
      'the list answered 500: socket hang up',
    ],
    [new Error('no voice to check'), 'no voice to check'],
    ['a string', 'a string'],
  ])('%s → %s', (error, text) => {
    expect(errorText(error)).toBe(text);
  });
});
