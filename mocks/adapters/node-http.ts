import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors } from '../../openapi/contract.js';

/**
 * A web stream over the request body that reads from the socket only as fast as the core consumes
 * (Node 20's Readable.toWeb buffers ahead when the consumer is slower, e.g. writing to disk).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => controller.close());
        req.once('error', (error) => controller.error(error));
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        req.resume();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
}

/** Builds the Fetch Request of an incoming Node request; its body is streamed, never buffered. */
export function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (!name.startsWith(':')) headers.append(name, req.rawHeaders[i + 1] as string);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Writes a Fetch Response to a Node response with backpressure. A network-error Response
 * (`Prefer: fault=reset`) or a body that errors (`fault=cut-after-bytes`) destroys the socket, as a
 * real connection reset would; a client that goes away cancels the body, which stops synthesis.
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  if (response.type === 'error') {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const gone = new Promise<'gone'>((resolve) => res.once('close', () => resolve('gone')));
  let flushed: Promise<unknown> = Promise.resolve();
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone]);
      if (next === 'gone' || res.destroyed) {
        await reader.cancel('client went away');
        return;
      }
      if (next.done) break;
      flushed = new Promise((resolve) => res.write(next.value, resolve));
      if (res.writableNeedDrain) {
        const drained = await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
        if (drained === 'gone') {
          await reader.cancel('client went away');
          return;
        }
      }
    }
    res.end();
  } catch {
    // A body that errors is a connection cut: let the bytes already written reach the client first.
    await Promise.race([flushed, gone]);
    res.destroy();
  }
}

/**
 * Answers what Node's HTTP parser refuses before any handler runs (huge headers, garbage) with the
 * envelope, instead of a bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : errors.invalidRequest.status;
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify({
    error_code: errors.invalidRequest.code,
    error_message: tooLarge ? 'request headers are too large' : `malformed HTTP request: ${error.message}`,
    succeed: false,
    data: null,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
