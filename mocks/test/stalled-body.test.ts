/**
 * A request body that stops arriving is cut after the body timeout with a 408 envelope, the
 * connection closes, and an upload gives its quota slot back. Raw sockets on loopback, so the test
 * decides exactly when the client stops sending.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, bodyTimeoutMs: 300 });
});
afterAll(() => server.close());

/** Sends `head` and `start` of a body, then nothing; resolves with everything the server sent and when it closed. */
function stall(head: string, start: string): Promise<{ text: string; ms: number }> {
  const { port } = new URL(server.url);
  const began = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head + start));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => resolve({ text, ms: Date.now() - began }));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(new Error('no answer in 5 s')), 5000);
  });
}

const envelopeOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

describe('a stalled request body', () => {
  it('is cut with 408 mid-upload, the connection closes, and the upload quota slot is given back', async () => {
    const boundary = 'stall';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF....`;
    const head =
      'POST /v1/files/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: mock-key\r\n' +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 10000000\r\n\r\n`;
    const { text, ms } = await stall(head, part);
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(envelopeOf(text)).toMatchObject({ error_code: 10001, succeed: false, data: null });
    expect(envelopeOf(text).error_message).toMatch(/stalled/);
    // Not cut before the 300 ms body timeout (a lower bound, so load cannot break it); that it is cut at
    // all is the 408 above (the client gives up only after 5 s).
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(Object.values(server.service.state.rateLimit.snapshot()).flat()).toEqual([]);
    expect(server.service.state.uploads.snapshot().records).toEqual([]);
  });

  it('is cut with 408 when a small JSON body stops short of its Content-Length', async () => {
    const head =
      'POST /v1/text-to-speech HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: mock-key\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const { text } = await stall(head, '{"generate_text":');
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(envelopeOf(text).error_code).toBe(10001);
  });

  it('does not cut a slow body that keeps coming', async () => {
    const body = JSON.stringify({ generate_text: 'slow but steady' });
    const { port } = new URL(server.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
        if (received.includes('\r\n\r\n')) socket.destroy();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.write(
        'POST /v1/text-to-speech HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: mock-key\r\n' +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // Four pieces, 200 ms apart: 800 ms in all, each gap shorter than the 300 ms timeout.
      const pieces = [0, 1, 2, 3].map((i) => body.slice((i * body.length) / 4, ((i + 1) * body.length) / 4));
      for (const [i, piece] of pieces.entries()) setTimeout(() => socket.write(piece), 200 * (i + 1));
    });
    expect(text.startsWith('HTTP/1.1 200 ')).toBe(true);
  });
});
