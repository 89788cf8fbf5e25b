/**
 * The control endpoints whose body is optional take a request with none, as docs/mock.md says: `curl -X
 * POST …/__mock/rate-limit/reset` sends no Content-Type and no Content-Length, `curl -d ''` a form type
 * and a length of 0. Written on a raw socket, so the request is exactly what curl sends.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../node/server.js';
import { testServiceOptions } from './helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, host: '127.0.0.1', serviceOptions: testServiceOptions });
});
afterAll(() => server.close());

/** One HTTP/1.1 request with exactly `headers` (and `body`); the status and the body of the answer. */
function raw(path: string, headers: readonly string[], body = ''): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', rest = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: rest });
    });
    socket.write(
      [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...headers, '', body].join(
        '\r\n',
      ),
    );
  });
}

describe('a control endpoint whose body is optional, sent none', () => {
  it.each([
    ['curl -X POST (no Content-Type, no Content-Length)', [] as string[]],
    [
      "curl -d '' (a form type, Content-Length: 0)",
      ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 0'],
    ],
    ['an empty chunked body', ['Transfer-Encoding: chunked']],
  ])('POST /__mock/rate-limit/reset, %s: every user', async (_how, headers) => {
    const answer = await raw(
      '/__mock/rate-limit/reset',
      headers,
      headers[0]?.startsWith('Transfer') ? '0\r\n\r\n' : '',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"reset":"all users"');
  });

  it('POST /__mock/populate with no body says what it needs (voices), not what Content-Type to send', async () => {
    const answer = await raw('/__mock/populate', []);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('voices: expected a JSON body like {\\"voices\\": 50');
  });

  it('a body that is there is still read as JSON: a form body is refused, a JSON key is used', async () => {
    const form = await raw(
      '/__mock/rate-limit/reset',
      ['Content-Type: application/x-www-form-urlencoded', 'Content-Length: 12'],
      'key=mock-key',
    );
    expect([form.status, form.body]).toEqual([
      400,
      expect.stringContaining('Content-Type must be application/json'),
    ]);
    const json = await raw(
      '/__mock/rate-limit/reset',
      ['Content-Type: application/json', 'Content-Length: 18'],
      '{"key":"mock-key"}',
    );
    expect([json.status, json.body]).toEqual([200, expect.stringContaining('"reset":"user-1"')]);
  });
});
