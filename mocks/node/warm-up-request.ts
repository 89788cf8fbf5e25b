import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { NextTurn } from '../core/platform/warm-up.js';
import type { MockService } from '../core/service.js';
import { controlGuard } from './control-guard.js';
import { requestHandler } from './request-handler.js';

/**
 * What the loopback warm-up says: short, as the core is warm by then (service.warm's passes); what is
 * still cold is the Node adapter's way for a POST, which a short text walks as a long one does.
 */
const text = "Hello, this warms the server's way for a stream: a body read, a head, chunks written. ".repeat(
  4,
);
/** How much of the answer the warm-up reads before it hangs up: its head and a few chunks. */
const bytesRead = 32_768;
/**
 * How many such requests, one after another, each on a connection of its own: over 10 fresh mocks
 * (load ~4), three brought the first real stream's own first byte to ~2 ms where one left it at ~4.
 * Sixteen, eight fresh mocks each (docs/performance.md, the eleventh round): the first real stream's
 * own first byte 0.7 ms where three left it at 1.0 (the reading of its body alone 0.2–0.5 ms against
 * ~0.14 from the fourth stream on: Node's stream code still warming), the client's 1.66 against 2.00.
 */
const requests = 16;
/** However the warm-up goes, it gives up after this long: it must never hold the server's close. */
const giveUpMs = 2_000;

/**
 * One stream request through the Node adapter's own code (the request handler, the POST body read,
 * the chunked writes, Node's HTTP server code for a chunked answer) on a throwaway server: a second
 * server on an ephemeral loopback port, over the throwaway service (`spare`) of `service.warm()`,
 * closed after it. V8 compiles per function, so the real server's same functions are warm for its
 * first real stream (a fresh mock's first 5,000-character stream waited ~8 ms for its first byte
 * where the next took ~2). The real service's state (request log, ledger, journal) never sees it,
 * and the throwaway server answers only the one connection it opened itself.
 *
 * @example
 * await service.warm((spare, apiKey, nextTurn) =>
 *   warmNodePath(spare, apiKey, { cors: true, bodyTimeoutMs: 30_000 }, nextTurn));
 */
export async function warmNodePath(
  spare: MockService,
  apiKey: string,
  options: { readonly cors: boolean; readonly bodyTimeoutMs: number },
  nextTurn: NextTurn = () => new Promise((resolve) => setImmediate(resolve)),
): Promise<void> {
  // A key no header can carry is not sent (the config allows any string).
  if (/[\r\n]/.test(apiKey)) return;
  let ownPort: number | undefined;
  const handle = requestHandler({
    service: spare,
    guard: controlGuard('127.0.0.1', undefined),
    cors: options.cors,
    fallbackOrigin: 'http://127.0.0.1',
    bodyTimeoutMs: options.bodyTimeoutMs,
  });
  const server = createServer(
    { noDelay: true },
    ownConnectionOnly(handle, () => ownPort),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    for (let i = 0; i < requests; i++) {
      await oneStream(port, apiKey, (local) => {
        ownPort = local;
      });
      // A turn between them (the service's: none while it answers real requests), so that a real
      // request that came meanwhile is answered first.
      await nextTurn();
    }
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/**
 * A request listener that answers only requests from the warm-up's own connection (its client's
 * local port): anyone else who finds the throwaway server's port is hung up on, never answered.
 */
export function ownConnectionOnly(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  ownPort: () => number | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const port = ownPort();
    if (port === undefined || req.socket.remotePort !== port) req.socket.destroy();
    else handle(req, res);
  };
}

/** Sends one stream request by hand (no HTTP client code to load) and hangs up after its first bytes. */
function oneStream(port: number, apiKey: string, connected: (localPort: number) => void): Promise<void> {
  const body = JSON.stringify({ generate_text: text });
  return new Promise<void>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, giveUpMs);
    socket.once('connect', () => {
      connected(socket.localPort as number);
      socket.write(
        `POST /v1/text-to-speech/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/json\r\nX-API-Key: ${apiKey}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      read += chunk.byteLength;
      if (read >= bytesRead) done();
    });
    socket.once('end', done);
    socket.once('error', done);
  });
}
