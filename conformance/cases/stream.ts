import { synthesize } from '../actions.js';
import { expectAudio } from '../expect.js';
import { bodyText } from '../http.js';
import type { ConformanceCase } from '../types.js';
import { longText } from './support.js';

/** Long enough that a real stream is seconds of audio: the first bytes must come well before the last. */
export const progressiveTextLength = 2400;
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
      const ex = await synthesize(ctx, 'stream', { generate_text: longText(progressiveTextLength) });
      if (!(await expectAudio(ctx, ex, 'streamed synthesis of a long text', { streamed: true }))) return;
      const first = ex.firstByteMs ?? ex.totalMs;
      const timing = `first byte after ${first.toFixed(0)} ms, last after ${ex.totalMs.toFixed(0)} ms, ${ex.reads} reads, ${ex.bytes.byteLength} bytes`;
      ctx.note(timing);
      ctx.observe(
        'stream-chunking',
        `${ex.reads} reads, about ${Math.round(ex.bytes.byteLength / Math.max(1, ex.reads))} bytes each`,
      );
      ctx.check(ex.reads > 1, `the body arrived in a single read (${timing})`, { request: ex.request });
      ctx.check(first <= ex.totalMs * progressiveMaxShare, `the stream is buffered: ${timing}`, {
        request: ex.request,
      });
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
