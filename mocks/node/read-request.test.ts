import { describe, expect, it } from 'vitest';
import type { CoreRequest } from '../core/context.js';
import type { HeaderSource } from '../core/state/exchange.js';
import { firstHost, rawHeader, toRequest } from './read-request.js';

describe('request headers read from Node rawHeaders', () => {
  const raw = [
    'Host',
    'mock.test:4010',
    'X-API-Key',
    'mock-key',
    'prefer',
    'code=503',
    'x-api-key',
    'second',
    'HOST',
    'b',
  ];

  it.each([
    ['x-api-key', 'mock-key, second'],
    ['X-API-KEY', 'mock-key, second'],
    ['Prefer', 'code=503'],
    ['content-type', null],
    ['x-api-ke', null],
  ])('%s → %j (as Fetch Headers.get joins repeats)', (name, value) => {
    expect(rawHeader(raw, name)).toBe(value);
  });

  it('takes the first Host, as Node does, and none without one', () => {
    expect(firstHost(raw)).toBe('mock.test:4010');
    expect(firstHost(['X-API-Key', 'k'])).toBeUndefined();
  });
});

describe('a GET request over Node rawHeaders, as the journal compares them', () => {
  const get = (rawHeaders: string[]) =>
    toRequest({ method: 'GET', rawHeaders } as never, {} as never, 'http://mock.test/v1/voice/list', 1000);
  const headersOf = (rawHeaders: string[]) => (get(rawHeaders) as CoreRequest).headers as HeaderSource;
  const lines = ['Host', 'mock.test', 'X-API-Key', 'mock-key'];

  it('holds the same headers as another list of the same lines in the same order', () => {
    expect(headersOf(lines).sameAs?.(headersOf([...lines]))).toBe(true);
  });

  it.each([
    ['another value', ['Host', 'mock.test', 'X-API-Key', 'other-key']],
    ['another spelling of a name', ['host', 'mock.test', 'X-API-Key', 'mock-key']],
    ['another order', ['X-API-Key', 'mock-key', 'Host', 'mock.test']],
    ['one line more', [...lines, 'Prefer', 'code=503']],
    ['one line less', ['Host', 'mock.test']],
  ])('does not with %s', (_, other) => {
    expect(headersOf(lines).sameAs?.(headersOf(other))).toBe(false);
  });

  it('never with Fetch Headers, even of the same lines', () => {
    expect(headersOf(lines).sameAs?.(new Headers({ Host: 'mock.test', 'X-API-Key': 'mock-key' }))).toBe(
      false,
    );
  });
});
