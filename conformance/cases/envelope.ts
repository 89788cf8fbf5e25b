/**
 * §2.1 and §7 in their own cases. Every JSON response of every case is checked against the envelope
 * rules anyway (ctx.call); these cases make sure one success and one failure per envelope endpoint
 * are always looked at, even in a run filtered with --only.
 */

import { asEnvelope } from '../../judge/envelope.js';
import { deleteVoice, listPage, uploadForm } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import type { Exchange } from '../toolkit/http.js';

function recordShape(ctx: CaseContext, ex: Exchange, what: string): void {
  ctx.check(
    asEnvelope(ex.json) !== undefined,
    `${what}: the body is not the §2.1 envelope: ${JSON.stringify(ex.json)}`,
    {
      request: ex.request,
    },
  );
}

const cases: ConformanceCase[] = [
  {
    id: 'envelope.success.list',
    section: '§2.1',
    severity: 'must',
    title: 'a success is HTTP 200 with succeed true, error_code 0, error_message empty and data an object',
    async run(ctx) {
      const { ex } = await listPage(ctx);
      recordShape(ctx, ex, 'listing voices');
      ctx.check(ex.status === 200, `listing voices answered HTTP ${ex.status}`, { request: ex.request });
    },
  },
  {
    id: 'envelope.failure.upload',
    section: '§2.1, §7',
    severity: 'must',
    title: 'an upload failure is non-2xx with succeed false, a nonzero error_code, a message and data null',
    async run(ctx) {
      const ex = await uploadForm(ctx, { scene: 'audio' });
      recordShape(ctx, ex, 'an upload without a file');
      ctx.check(ex.status >= 400, `an upload without a file answered HTTP ${ex.status}`, {
        request: ex.request,
      });
    },
  },
  {
    id: 'envelope.success.delete',
    section: '§2.1, §4.4',
    severity: 'must',
    title: 'a delete answers with the envelope',
    openQuestion: 'delete-response-body',
    async run(ctx) {
      const ex = await deleteVoice(ctx, ctx.newVoiceId('env'));
      recordShape(ctx, ex, 'deleting a missing voice');
    },
  },
];

export const envelopeCases: ConformanceCase[] = cases;
