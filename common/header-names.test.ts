import { describe, expect, it } from 'vitest';
import { dataHeaderProblem, hopByHopHeaders } from './header-names.js';

describe('dataHeaderProblem', () => {
  it.each([
    ...hopByHopHeaders,
    'Content-Length',
    'CONTENT-TYPE',
    'Content-Encoding',
    'Content-Range',
    'Content-Disposition',
    'Set-Cookie',
    'Cookie',
    'Access-Control-Allow-Origin',
    'access-control-max-age',
    'Host',
    'Date',
    'Proxy-Foo',
    'Sec-Fetch-Mode',
    'Retry-After',
    'X-API-Key',
    'X-Mock-Control-Token',
    // Security headers a browser obeys: a second X-Content-Type-Options undoes the kit's nosniff.
    'X-Content-Type-Options',
    'Strict-Transport-Security',
    'X-Frame-Options',
    'Referrer-Policy',
    'Cross-Origin-Resource-Policy',
    'Alt-Svc',
    'Refresh',
    'Link',
    'Server',
  ])('refuses %s', (name) => {
    expect(dataHeaderProblem(name)).toMatch(/; a PCM header needs a name of its own \(like X-Sample-Rate\)$/);
  });

  it.each(['', 'X Rate', 'X-Rate:', 'X-Rate\r\nContent-Length: 0', 'Ümlaut'])(
    'refuses %j: not a token',
    (name) => {
      expect(dataHeaderProblem(name)).toMatch(/is not a valid HTTP header name$/);
    },
  );

  it('cuts a long name short in its message', () => {
    expect(dataHeaderProblem(`${'x'.repeat(500)} `)?.length).toBeLessThan(120);
  });

  it.each(['X-Audio-Sample-Rate', 'X-Channels', 'Sample-Rate', 'x-bits'])('accepts %s', (name) => {
    expect(dataHeaderProblem(name)).toBeUndefined();
  });
});
