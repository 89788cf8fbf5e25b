/**
 * A `multipart/form-data` body read from a Web `ReadableStream` (the mock's uploads on the Node server,
 * msw/node and msw/browser): the one reader of scanner.ts, with a sink per part whose promise holds the
 * reading back until the part's bytes are stored.
 */

import type { PartHead } from './head.js';
import { type MultipartLimits, MultipartScanner } from './scanner.js';

/** Where one part's body goes. A promise from `data` holds the reading back until it settles. */
export interface PartSink {
  data(chunk: Uint8Array): void | Promise<void>;
  /** The part ended with its boundary (not called when the form breaks off). */
  end?(): void;
}

/** What the scanner handed on while it read one chunk, delivered in order once it returns. */
type Step =
  | { readonly kind: 'part'; readonly head: PartHead | undefined }
  | { readonly kind: 'data'; readonly bytes: Uint8Array }
  | { readonly kind: 'end' };

/**
 * Reads a whole `multipart/form-data` body, calling `onPart` for each named part and feeding its body
 * to the sink returned. Throws a MultipartError for a form that does not parse (no boundary, a broken
 * head, the end before the closing boundary); anything after the closing boundary is read and ignored.
 * A body it stops reading (an error, a sink that threw) is unlocked for the caller to drain.
 *
 * @example
 * await readMultipart(request.body, boundaryOf(contentType)!, (head) => ({ data: (chunk) => store(chunk) }));
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (head: PartHead) => PartSink,
  limits: MultipartLimits = {},
): Promise<void> {
  const steps: Step[] = [];
  const scanner = new MultipartScanner(
    boundary,
    {
      part: (head) => steps.push({ kind: 'part', head }),
      data: (bytes) => steps.push({ kind: 'data', bytes }),
      end: () => steps.push({ kind: 'end' }),
    },
    limits,
  );
  let sink: PartSink | undefined;
  /** Hands the steps of one chunk to the sinks, waiting for each sink's promise. */
  const deliver = async (): Promise<void> => {
    for (const step of steps) {
      if (step.kind === 'part') sink = step.head ? onPart(step.head) : undefined;
      else if (step.kind === 'end') {
        sink?.end?.();
        sink = undefined;
      } else if (sink) await sink.data(step.bytes);
    }
    steps.length = 0;
  };

  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      try {
        scanner.push(value);
      } finally {
        // What came before a broken part still reaches its sink, as it would have one chunk earlier.
        await deliver();
      }
    }
    ended = true;
  } finally {
    // A form that broke off is unlocked for the caller to drain. One read to its end stays locked:
    // releasing a finished reader rejects its `closed` promise, which left Node slower at HTTP after.
    if (!ended) reader.releaseLock();
  }
  scanner.finish();
}
