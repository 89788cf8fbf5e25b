import { describe, expect, it } from 'vitest';
import { endToEnd, upstreamHeaders } from './hop-by-hop.js';

describe('hop-by-hop headers', () => {
  it('drops the fixed list and what Connection names, keeps case, order and duplicates of the rest', () => {
    const raw = [
      'Content-Type',
      'audio/wav',
      'Connection',
      'keep-alive, X-Trace',
      'X-Trace',
      '1',
      'Transfer-Encoding',
      'chunked',
      'Set-Cookie',
      'a=1',
      'Keep-Alive',
      'timeout=5',
      'Proxy-Authenticate',
      'Basic',
      'Set-Cookie',
      'b=2',
      'Content-Length',
      '12',
    ];
    expect(endToEnd(raw)).toEqual([
      'Content-Type',
      'audio/wav',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'Content-Length',
      '12',
    ]);
  });

  it('rewrites Host and drops TE, Upgrade and Proxy-* from a request', () => {
    expect(
      upstreamHeaders(
        {
          host: 'proxy:1',
          te: 'trailers',
          upgrade: 'h2c',
          'proxy-authorization': 'x',
          'x-api-key': 'k',
          'content-length': '3',
        },
        'up:2',
      ),
    ).toEqual({ 'x-api-key': 'k', 'content-length': '3', host: 'up:2' });
  });
});
