/** Promises of the kit's mock that the spec does not make: checked only when the target is the mock. */
import { synthesize } from '../toolkit/actions.js';
import type { ConformanceCase } from '../toolkit/context.js';
import { expectAudio } from '../toolkit/expect.js';
import { longText } from './support.js';

const body = { generate_text: longText(400), voice_id: 'system_default', audio_format: 'wav' };
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

const cases: ConformanceCase[] = [
  {
    id: 'mock.synthesis.deterministic',
    section: '§2.5',
    severity: 'must',
    title: 'the mock answers the same synthesis request with the same bytes',
    needs: { mockOnly: true },
    async run(ctx) {
      for (const e of ['complete', 'stream'] as const) {
        const a = await synthesize(ctx, e, body);
        const b = await synthesize(ctx, e, body);
        if (!(await expectAudio(ctx, a, `${e} synthesis`, { streamed: e === 'stream' }))) continue;
        ctx.check(
          same(a.bytes, b.bytes),
          `${e}: two identical requests gave different bytes (${a.bytes.byteLength} vs ${b.bytes.byteLength})`,
        );
      }
    },
  },
  {
    id: 'mock.stream.equals-complete',
    section: '§4.5, §4.6',
    severity: 'must',
    title: 'the mock streams exactly the bytes of the complete response',
    needs: { mockOnly: true },
    async run(ctx) {
      const complete = await synthesize(ctx, 'complete', body);
      const stream = await synthesize(ctx, 'stream', body);
      ctx.check(
        same(complete.bytes, stream.bytes),
        `stream (${stream.bytes.byteLength} bytes) and complete (${complete.bytes.byteLength} bytes) differ`,
      );
    },
  },
];

export const mockPromiseCases: ConformanceCase[] = cases;
