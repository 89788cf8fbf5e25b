import type { StreamAnswer } from '../answer/answer.js';
import type { CoreRequest } from '../context.js';

/**
 * What the warm-up says: sentences of the kind every text has (words, commas, full stops, a number),
 * long enough that counting its size runs hot (a long text's first byte waits for its size count).
 */
const words = 'Hello, this warms the voice up: 12 words or so, said twice. '.repeat(10);
/** Only its first chunks are rendered: the code is compiled by then, and more is only work. */
const chunksRendered = 8;

/** What the warm-up needs of a service: its answer. */
interface Answering {
  answer(request: CoreRequest): unknown;
}

/**
 * A stream request nobody hears, answered by a throwaway service (`spare`, made with the same engine
 * and config) and dropped after its first chunks, so that the first real stream need not wait for
 * the lazy imports, first compilations and memos on its way (~80 ms of its first byte on a fresh
 * mock here, ~20 ms after a warm-up). The real service's state (ledger, request log) never sees it;
 * only the engine's memos fill (they show in `state.caches.engine`, and reset empties them), and they
 * hold results of pure functions of the text, so no answer changes. WAV only: the MP3 encoder
 * (lamejs, ~25 ms to load) is still loaded by the first mp3 request.
 *
 * @example
 * await warmUp(createMockService({ config, audio, logger }), config.keys[0].key);
 */
export async function warmUp(spare: Answering, apiKey: string | undefined): Promise<void> {
  if (apiKey === undefined) return;
  const body = new TextEncoder().encode(JSON.stringify({ generate_text: words }));
  const request: CoreRequest = {
    method: 'POST',
    url: 'http://warm-up.invalid/v1/text-to-speech/stream',
    headers: new Headers({ 'Content-Type': 'application/json', 'X-API-Key': apiKey }),
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    }),
    signal: new AbortController().signal,
  };
  const answer = (await spare.answer(request)) as Partial<StreamAnswer>;
  const source = answer.source;
  if (!source) return;
  for (let i = 0; i < chunksRendered && (await source.pull()) !== undefined; i++);
  source.cancel();
}
