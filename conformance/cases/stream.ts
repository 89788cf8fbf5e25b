import { synthesize } from '../toolkit/actions.js';
import type { ConformanceCase } from '../toolkit/context.js';
import { expectAudio } from '../toolkit/expect.js';
import { bodyText } from '../toolkit/http.js';
import { longText } from './support.js';

/** Long enough that a real stream is seconds of audio: the first bytes must come well before the last. */
export const progressiveTextLength = 4000;
/** Used when a deployment refuses the long text (its maximum is not shown). */
export const fallbackTextLength = 2000;
/** Measurements before the stream is judged buffered. */
export const progressiveAttempts = 3;
/** The first byte must arrive within this share of the whole response time. */
export const progressiveMaxShare = 0.5;

const cases: ConformanceCase[] = [
  {
    id: 'synthesis.stream.chunked',
    section: '§4.6',
    severity: 'must',
    title: 'the stream uses chunked transfer: Transfer-Encoding chunked, no Content-Length',
    async run(ctx) {
      const ex = await synthesize(ctx, 'stream', { generate_text: longText(600) });
      if (!(await expectAudio(ctx, ex, 'streamed synthesis', { streamed: true }))) return;
      const length = ex.headers.get('content-length');
      ctx.check(length === null, `the stream carries Content-Length ${length}; chunked transfer has none`, {
        request: ex.request,
      });
      const te = ex.headers.get('transfer-encoding');
      if (ctx.state.httpTransport) {
        ctx.check(/chunked/i.test(te ?? ''), `Transfer-Encoding is ${JSON.stringify(te)}, not chunked`, {
          request: ex.request,
        });
      } else
        ctx.note('in-process transport: Transfer-Encoding is not visible; only Content-Length was checked');
    },
  },
  {
    id: 'synthesis.stream.progressive',
    section: '§4.6',
    severity: 'must',
    title: `the stream delivers audio as it becomes ready (first byte within ${progressiveMaxShare * 100}% of the total time)`,
    openQuestion: 'stream-chunking',
    async run(ctx) {
      // A loaded machine can only make a real stream look buffered, never the reverse: best of a few.
      const timings: string[] = [];
      for (let attempt = 0; attempt < progressiveAttempts; attempt++) {
        let ex = await synthesize(ctx, 'stream', { generate_text: longText(progressiveTextLength) });
        if (ex.status !== 200) {
          ctx.note(
            `${progressiveTextLength} characters refused (HTTP ${ex.status}); measuring with ${fallbackTextLength}`,
          );
          ex = await synthesize(ctx, 'stream', { generate_text: longText(fallbackTextLength) });
        }
        if (!(await expectAudio(ctx, ex, 'streamed synthesis of a long text', { streamed: true }))) return;
        const first = ex.firstByteMs ?? ex.totalMs;
        const timing = `first byte after ${first.toFixed(0)} ms, last after ${ex.totalMs.toFixed(0)} ms, ${ex.reads} reads, ${ex.bytes.byteLength} bytes`;
        timings.push(timing);
        if (attempt === 0) {
          const each = Math.round(ex.bytes.byteLength / Math.max(1, ex.reads));
          ctx.observe('stream-chunking', `${ex.reads} reads, about ${each} bytes each`);
        }
        if (ex.reads > 1 && first <= ex.totalMs * progressiveMaxShare) return ctx.note(timing);
      }
      ctx.fail(`the stream is buffered: ${timings.join('; ')}`);
    },
  },
  {
    id: 'synthesis.stream.not-event-stream',
    section: '§4.6, §6',
    severity: 'must',
    title: 'the stream is raw audio: not SSE, not a JSON event stream',
    async run(ctx) {
      const ex = await synthesize(ctx, 'stream', { generate_text: longText(300) });
      const ct = ex.headers.get('content-type') ?? '';
      ctx.check(!/event-stream|json|ndjson/i.test(ct), `the stream's Content-Type is ${ct}`, {
        request: ex.request,
      });
      const head = bodyText(ex.bytes.subarray(0, 16)).trimStart();
      ctx.check(!head.startsWith('data:') && !head.startsWith('event:'), 'the stream body starts like SSE', {
        request: ex.request,
      });
      ctx.check(!head.startsWith('{') && !head.startsWith('['), 'the stream body starts like JSON', {
        request: ex.request,
      });
      await expectAudio(ctx, ex, 'streamed synthesis', { streamed: true });
    },
  },
];

export const streamCases: ConformanceCase[] = cases;
