import type { StreamAnswer } from '../answer/answer.js';
import type { CoreRequest } from '../context.js';

/**
 * A paragraph of varied prose first (clusters, digits, symbols, names: ~70 different words), so each
 * pass does not only say the one sentence below: the first stream of plain prose (~420 different
 * words, 5,000 characters) took 7.1–13.6 ms in process to its first chunk after the warm-up without
 * it, 5.2–13.3 (median ~7.7 against ~11.9) with it. Each word is spelled out once and then kept. A
 * line break and a double space among its sentences, as many texts have: the whitespace collapse of a
 * text (text.ts) then runs its replace here first, not in a client's request.
 */
const prose =
  'Quick brown foxes jumped over 3 lazy dogs; twelve zebras grazed quietly beside the wharf.\n' +
  "Photographs of the squad's 1,024 thriving plants (mostly ferns) were archived in October 2026.  " +
  'Strengths, rhythms and glimpses: the scrawny knight sketched six crisp shapes, then whispered "enough". ' +
  'Would you like fries with that? Exactly! Our newest employee, Dr. Xavier Juarez, joined on March 5th. ' +
  'Bright yellow kayaks drifted through fjords while psychologists measured queue lengths at 7:45 p.m. ';
/**
 * What the warm-up says: sentences of the kind texts have (words, commas, full stops, a number, an
 * apostrophe, a letter beyond ASCII). Its passes must be long: the parse and the size count of a text
 * are loops per character, which V8 compiles to optimized code only after some thousands of rounds. One
 * pass of 600 characters (as this once was) left them cold: a fresh mock's first 5,000-character stream
 * spent ~6 ms of its ~9 ms first byte in them. Six passes of ~2,000 characters still left a fresh mock
 * ~2 ms behind a warm one; sixteen of 5,000 (as long as the texts clients send, cut to the config's
 * limit) halved that gap, for ~100 ms of warm-up after readiness.
 */
const words =
  prose +
  "Hello, this warms the voice up: 12 words or so, said again. Is it ready? Yes! It's a well-known café. ".repeat(
    50,
  );
/** The longest pass: a long text is what the per-character loops must have seen many times. */
const passChars = 5000;
/** Each pass says a text of its own (its number in front), so none is answered from the plan memo. */
export const warmUpPasses = 16;
/** The first pass's length: what the one pass of old said, so the first answer waits about as long. */
const firstPassChars = 600;
/** Only the first chunks of each pass are rendered: the code is compiled by then, and more is only work. */
const chunksRendered = 8;

/**
 * Resolves when the warm-up may do its next piece of work: after the event loop has had a turn (so
 * whatever came meanwhile is read and answered first), and, from a service, not while it is answering
 * real requests. May reject (the service closed): the warm-up then stops.
 */
export type NextTurn = () => Promise<void>;

/** A macrotask: what a warm-up given no service's turns waits for between its pieces. */
const macrotask: NextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** How long the warm-up waits before it looks again whether the service is still busy, ms. */
const busyPauseMs = 1;

/**
 * The turns a service gives its warm-up: the next turn of the event loop (`sleep(0)`, a macrotask
 * that lets pending I/O in, without setTimeout's 1 ms), then, while `busy()` (real requests are being
 * answered, or their audio renders), a wait of a millisecond at a time. Rejects once `closed()`.
 *
 * @example
 * await warmUp(throwaway, apiKey, maxTextLength, quietTurns(sleep, () => answering > 0, () => closed));
 */
export function quietTurns(
  sleep: (ms: number) => Promise<void>,
  busy: () => boolean,
  closed: () => boolean,
): NextTurn {
  return async () => {
    await sleep(0);
    while (busy() && !closed()) await sleep(busyPauseMs);
    if (closed()) throw new Error('the service closed during its warm-up');
  };
}

/** What the warm-up needs of a service: its answer. */
interface Answering {
  answer(request: CoreRequest): unknown;
}

/**
 * Stream requests nobody hears, answered by a throwaway service (`throwaway`, made with the same engine
 * and config) and dropped after their first chunks, so that the first real stream need not wait for
 * the lazy imports, first compilations and memos on its way (~80 ms of its first byte on a fresh
 * mock here before any warm-up). The passes are separate requests, and every pass and every chunk of
 * one waits for `nextTurn` (the service's: a turn of the event loop, and none while the real service
 * is answering), so a request that comes meanwhile (the first list, a readiness probe, a client's
 * first stream) waits for one chunk's work at most, and the warm-up then waits for it, never the other
 * way round. The real service's state (ledger, request log) never sees them; only the engine's memos fill (they show in
 * `state.caches.engine`, and reset empties them), and they hold results of pure functions of the
 * text, so no answer changes. WAV only: the MP3 encoder (lamejs, ~25 ms to load) is still loaded by
 * the first mp3 request.
 *
 * @example
 * await warmUp(createMockService({ config, audio, logger }), config.keys[0].key, config.maxTextLength);
 */
export async function warmUp(
  throwaway: Answering,
  apiKey: string | undefined,
  maxTextLength = Number.POSITIVE_INFINITY,
  nextTurn: NextTurn = macrotask,
): Promise<void> {
  if (apiKey === undefined) return;
  for (let pass = 1; pass <= warmUpPasses; pass++) {
    // The first pass is short: everything it meets is compiled for the first time, and a readiness
    // probe that arrives meanwhile waits for it. No pass is longer than the config lets a text be.
    const text = `${pass}. ${words.slice(0, pass === 1 ? firstPassChars : passChars)}`;
    await warmPass(throwaway, apiKey, text.slice(0, maxTextLength), nextTurn);
    await nextTurn();
  }
}

/**
 * The headers of a warm-up request as a plain map: what the core reads of a request's headers is
 * `get`, and Fetch's `Headers` would load the platform's Fetch implementation for nothing (undici on
 * Node: tens of milliseconds of the event loop right after the server starts listening).
 */
const warmHeaders = (apiKey: string): Map<string, string> =>
  new Map([
    ['content-type', 'application/json'],
    ['x-api-key', apiKey],
  ]);

/** One stream request nobody hears: its first chunks rendered, each in a turn of its own, then cancelled. */
async function warmPass(
  throwaway: Answering,
  apiKey: string,
  text: string,
  nextTurn: NextTurn,
): Promise<void> {
  const body = new TextEncoder().encode(JSON.stringify({ generate_text: text }));
  const headers = warmHeaders(apiKey);
  const request: CoreRequest = {
    method: 'POST',
    url: 'http://warm-up.invalid/v1/text-to-speech/stream',
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    }),
    bodyBytes: body,
    signal: new AbortController().signal,
  };
  const answer = (await throwaway.answer(request)) as Partial<StreamAnswer>;
  const source = answer.source;
  if (!source) return;
  try {
    for (let i = 0; i < chunksRendered && (await source.pull()) !== undefined; i++) await nextTurn();
  } finally {
    source.cancel();
  }
}
