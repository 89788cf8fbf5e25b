// Kept in the declaration file, which names Node's types: a consumer's TypeScript then loads
// @types/node for it even where its "types" list leaves @types/node out (TypeScript 6's default).
/// <reference types="node" preserve="true" />
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BytesAnswer, ChunkSource, StreamAnswer } from '../core/answer/answer.js';
import { fail, render } from '../core/answer/envelope.js';
import { STATUS_CODES } from './node-http.js';

/**
 * The head of a Node answer as one flat [name, value, ...] list for `res.writeHead`: `extra` (the
 * CORS headers) first, unless the answer sets the same header itself, then the answer's own.
 */
function headList(own: Readonly<Record<string, string>>, extra: readonly string[]): string[] {
  const list: string[] = [];
  for (let i = 0; i + 1 < extra.length; i += 2) {
    const name = extra[i] as string;
    if (!(name in own)) list.push(name, extra[i + 1] as string);
  }
  for (const name in own) list.push(name, own[name] as string);
  return list;
}

/**
 * The head of each answer written, per CORS list, and its bytes as a Buffer (Node makes one of a
 * Uint8Array on every write otherwise): a kept answer (the list) is sent again and again.
 */
const heads = new WeakMap<
  BytesAnswer,
  { readonly extra: readonly string[]; readonly head: string[]; readonly body: Buffer }
>();

/**
 * Writes an answer whose bytes are in memory with one `writeHead` and one `res.end`, as a bare
 * node:http server does.
 */
export function writeBytesAnswer(
  answer: BytesAnswer,
  res: ServerResponse,
  extra: readonly string[] = [],
): void {
  let kept = heads.get(answer);
  if (kept?.extra !== extra) {
    const { bytes } = answer;
    const head = headList(answer.headers, extra);
    head.push('Content-Length', String(bytes.byteLength));
    kept = { extra, head, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    heads.set(answer, kept);
  }
  res.writeHead(answer.status, kept.head);
  res.end(kept.body);
}

/**
 * Writes a streamed answer (audio) chunk by chunk as its source makes them, with backpressure: a chunk
 * that is ready at once is written with no promise in between.
 */
export function writeStreamAnswer(
  answer: StreamAnswer,
  res: ServerResponse,
  extra: readonly string[] = [],
  sent?: SentBody,
): Promise<void> {
  res.writeHead(answer.status, headList(answer.headers, extra));
  return writeChunks(answer.source, res, sent);
}

/**
 * Told how a streamed body went out once it ends: the writer is the one place that sees each chunk
 * leave, so the request log's time to first byte, chunk count and bytes are measured here.
 */
export interface SentBody {
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  ended(timing: {
    ttfbMs: number;
    chunks: number;
    bytes: number;
    durationMs: number;
    complete: boolean;
  }): void;
}

const ms = (from: number, to: number): number => Math.round((to - from) * 10) / 10;

/** The body loop of both writers: pull, write, wait for the socket when it asks. */
async function writeChunks(source: ChunkSource, res: ServerResponse, sentBody?: SentBody): Promise<void> {
  const counts = { chunks: 0, bytes: 0, firstAt: Number.NaN, complete: false };
  try {
    await writeCounted(source, res, counts);
  } finally {
    if (sentBody) {
      const end = performance.now();
      const { startedAt } = sentBody;
      const first = Number.isNaN(counts.firstAt) ? end : counts.firstAt;
      sentBody.ended({
        ttfbMs: ms(startedAt, first),
        chunks: counts.chunks,
        bytes: counts.bytes,
        durationMs: ms(startedAt, end),
        complete: counts.complete,
      });
    }
  }
}

/** The loop itself, counting what it hands to the socket in `counts`. */
async function writeCounted(
  source: ChunkSource,
  res: ServerResponse,
  counts: { chunks: number; bytes: number; firstAt: number; complete: boolean },
): Promise<void> {
  // One 'close' listener for the whole answer. A `Promise.race` against a "closed" promise per chunk
  // (as this once did) leaves a reaction on that promise per chunk, each holding its chunk until the
  // answer ends: a 5,000-character stream kept its whole 20 MB alive and left a major GC to the next
  // request.
  let gone = false;
  const onClose = () => {
    gone = true;
    source.cancel();
  };
  res.once('close', onClose);
  // Writes handed to the socket and written out, counted with one callback for all of them (not a
  // promise per chunk), so that a body that errors can let what was written reach the client first.
  let sent = 0;
  let written = 0;
  let allWritten: (() => void) | undefined;
  const onWritten = () => {
    written++;
    if (written === sent) allWritten?.();
  };
  try {
    for (;;) {
      const pulled = source.pull();
      const chunk = isPending(pulled) ? await pulled : pulled;
      if (gone || res.destroyed) {
        if (!gone) source.cancel();
        return;
      }
      if (chunk === undefined) break;
      sent++;
      counts.chunks = sent;
      counts.bytes += chunk.byteLength;
      if (sent === 1) counts.firstAt = performance.now();
      res.write(chunk, onWritten);
      // Node corks the socket on a write and uncorks it on the next tick, and this loop runs without
      // yielding while the body keeps up: the first chunk went out only with the fourth (~0.3 ms
      // later). One tick after the first write sends it, with the head, before the second is rendered.
      if (sent === 1) await nextTick();
      if (res.writableNeedDrain && !(await drained(res))) {
        source.cancel();
        return;
      }
    }
    res.off('close', onClose);
    res.end();
    counts.complete = true;
  } catch {
    // A body that errors is a connection cut: let the bytes already written reach the client first.
    if (written < sent)
      await Promise.race([new Promise<void>((resolve) => (allWritten = resolve)), closed(res)]);
    res.destroy();
  }
}

/** A chunk still to come (any thenable), told apart from one made already. */
const isPending = (pulled: ReturnType<ChunkSource['pull']>): pulled is Promise<Uint8Array | undefined> =>
  typeof (pulled as PromiseLike<unknown> | undefined)?.then === 'function';

const nextTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

/** Resolves true on 'drain', false if the answer closes first; leaves no listener behind either way. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => {
      res.off('close', onClosed);
      resolve(true);
    };
    const onClosed = () => {
      res.off('drain', onDrain);
      resolve(false);
    };
    res.once('drain', onDrain);
    res.once('close', onClosed);
  });
}

function closed(res: ServerResponse): Promise<void> {
  return res.closed ? Promise.resolve() : new Promise((resolve) => res.once('close', () => resolve()));
}

/**
 * Answers what Node's HTTP parser refuses before any handler runs (huge headers, garbage) with the
 * envelope from the catalogue, instead of a bare status line. No ServerResponse exists yet: the head is
 * written by hand on the socket.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? render(fail('headersTooLarge'))
      : render(fail('invalidRequest', `malformed HTTP request: ${error.message}`));
  const head = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head.join('')}` +
      `Content-Length: ${answer.bytes.byteLength}\r\nConnection: close\r\n\r\n`,
  );
  socket.end(answer.bytes);
}
