/**
 * Small upstreams for the proxy's tests: each answers like the contract but for exactly one rule.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  readonly url: string;
  close(): Promise<void>;
}

/** An HTTP server on loopback with `handle` for every request (the body is read first). */
export async function upstream(
  handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void,
): Promise<Upstream> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The §2.1 envelope as JSON text. */
export const envelope = (status: number, code: number, data: unknown = null) =>
  JSON.stringify({
    error_code: code,
    error_message: code === 0 ? '' : 'refused',
    succeed: status === 200,
    data,
  });

export function sendJson(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** A 16-bit mono 24 kHz WAV of `frames` samples of a tone; `sizes` overrides the header fields. */
export function wav(frames: number, sizes: { riff?: number; data?: number } = {}): Buffer {
  const data = frames * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(sizes.riff ?? 36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(24000, 24);
  b.writeUInt32LE(48000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(sizes.data ?? data, 40);
  for (let i = 0; i < frames; i++) b.writeInt16LE(Math.round(8000 * Math.sin(i / 10)), 44 + i * 2);
  return b;
}
