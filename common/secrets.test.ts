import { describe, expect, it } from 'vitest';
import { isSecretHeader, isSecretParam, maskedQueryPairs, maskSecret, maskUrl } from './secrets.js';

describe('secrets', () => {
  it.each([
    'Cookie',
    'Set-Cookie',
    'Authorization',
    'Proxy-Authorization',
    'X-API-Key',
    'X-Auth-Token',
    'X-Api-Token',
    'X-Mock-Control-Token',
    'X-Client-Secret',
    'X-Password',
    'X-Session-Id',
    'Api-Key',
  ])('%s is a secret header', (name) => {
    expect(isSecretHeader(name)).toBe(true);
  });

  it.each(['Content-Type', 'Keep-Alive', 'Accept', 'X-Request-Id', 'Prefer', 'Host', 'X-Sample-Rate'])(
    '%s is not',
    (name) => {
      expect(isSecretHeader(name)).toBe(false);
    },
  );

  it.each([
    'api_key',
    'apikey',
    'API-KEY',
    'key',
    'token',
    'access_token',
    'secret',
    'password',
    'signature',
    'sig',
  ])('query parameter %s is a secret', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });

  it.each(['page_size', 'voice_id', 'format', 'monkey', 'keyword'])('query parameter %s is not', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });

  it('shows at most 4 characters, and at most a quarter of the secret', () => {
    expect(maskSecret('mock-key-staging')).toBe('mo…ng');
    expect(maskSecret('sk_live_0123456789abcdef0123')).toBe('sk…23');
    for (const length of [8, 12, 13, 15]) expect(maskSecret('k'.repeat(length))).toBe('k…k');
    expect(maskSecret('short')).toBe('…');
    for (let length = 0; length < 64; length += 1) {
      const shown = maskSecret('x'.repeat(length)).replace('…', '');
      expect(shown.length).toBeLessThanOrEqual(Math.min(4, Math.floor(length / 4)));
    }
  });

  it('masks the secret query parameters of a URL and leaves the rest as it was', () => {
    expect(maskUrl('http://h/v1/voice/list?page_size=5&api_key=mock-key-staging&x=a%20b#f')).toBe(
      'http://h/v1/voice/list?page_size=5&api_key=mo%E2%80%A6ng&x=a%20b#f',
    );
    expect(maskUrl('/p?Token=abcdefgh12345678&flag')).toBe('/p?Token=ab%E2%80%A678&flag');
    expect(maskUrl('/p?api%5Fkey=%ZZ-not-encoding-at-all')).toMatch(/^\/p\?api%5Fkey=%25Z/);
    expect(maskUrl('/no/query')).toBe('/no/query');
    expect(maskedQueryPairs(new URLSearchParams('a=1&secret=0123456789abcdef'))).toEqual([
      { name: 'a', value: '1' },
      { name: 'secret', value: '01…ef' },
    ]);
  });
});
