import { asEnvelope } from '../../judge/envelope.js';
import { createVoice, deleteVoice, listedIds, synthesize } from '../toolkit/actions.js';
import type { ConformanceCase } from '../toolkit/context.js';
import { expectAudio, expectOk, expectRefusal } from '../toolkit/expect.js';
import { expectSelectable, expectViews, snapshotViews } from '../toolkit/views.js';
import { shortText } from './support.js';

const cases: ConformanceCase[] = [
  {
    id: 'delete.voice.removed',
    section: '§3, §4.4',
    severity: 'must',
    title:
      'a deleted voice leaves the list (also one listed and used before) and synthesis, and only that voice',
    needs: { billable: true },
    async run(ctx) {
      const first = await snapshotViews(ctx);
      // A neighbour that must survive the delete: a voice of the run already listed, else a new one.
      const neighbour = [...first.ids][0] ?? (await createVoice(ctx, 'nbr'));
      if (!neighbour) return;
      const start = first.ids.has(neighbour) ? first : await snapshotViews(ctx);
      const id = await createVoice(ctx, 'del');
      if (!id) return;
      // Listed and spoken before the delete, so a list or a voice lookup a deployment caches is filled.
      const listed = await expectViews(ctx, start, {
        what: `creating ${id}`,
        section: '§4.2',
        added: [id],
        freeUses: 'charged',
      });
      await expectSelectable(ctx, id, true, 'before the delete');
      const ex = await deleteVoice(ctx, id, 'main', { probes: 'delete-response-body' });
      if (!expectOk(ctx, ex, `deleting ${id}`)) return;
      ctx.observe(
        'delete-response-body',
        `data on success: ${JSON.stringify(asEnvelope(ex.json)?.data ?? null)}`,
      );
      await expectViews(ctx, listed, {
        what: `deleting ${id}`,
        section: '§4.4',
        removed: [id],
        freeUses: 'kept',
      });
      await expectSelectable(ctx, neighbour, true, `after deleting ${id}, its neighbour`);
      for (const endpoint of ['complete', 'stream'] as const) {
        const tts = await synthesize(ctx, endpoint, { generate_text: shortText, voice_id: id });
        expectRefusal(ctx, tts, {
          what: `${endpoint} synthesis with the deleted voice ${id}`,
          question: 'synthesis-errors',
        });
      }
      const again = await deleteVoice(ctx, id, 'main', { probes: 'delete-response-body/missing' });
      ctx.check(again.status < 500, `deleting ${id} a second time answered HTTP ${again.status}`, {
        request: again.request,
      });
      ctx.check(
        again.status === 200,
        `deleting ${id} a second time answered HTTP ${again.status}, not success`,
        {
          request: again.request,
          level: 'should',
        },
      );
      ctx.check(!(await listedIds(ctx)).includes(id), `the voice ${id} came back after a second delete`);
    },
  },
  {
    id: 'delete.voice.idempotent',
    section: '§4.4',
    severity: 'must',
    title: 'deleting a voice that is already missing does not fail hard (success expected)',
    openQuestion: 'delete-response-body',
    async run(ctx) {
      const id = ctx.newVoiceId('gone');
      const before = await snapshotViews(ctx);
      const ex = await deleteVoice(ctx, id, 'main', { probes: 'delete-response-body/missing' });
      await expectViews(ctx, before, {
        what: `deleting the missing voice ${id}`,
        section: '§4.4',
        absent: [id],
        freeUses: 'kept',
      });
      ctx.observe(
        'delete-response-body',
        `already-missing voice: HTTP ${ex.status}, ${JSON.stringify(ex.json)}`,
      );
      ctx.check(ex.status < 500, `deleting a missing voice answered HTTP ${ex.status}`, {
        request: ex.request,
      });
      ctx.check(ex.status === 200, `deleting a missing voice answered HTTP ${ex.status}, not success`, {
        request: ex.request,
        level: 'should',
      });
    },
  },
  {
    id: 'delete.system-voice.survives',
    section: '§2.3, §4.4',
    severity: 'must',
    title: 'deleting system_default never removes it: synthesis with it still works',
    openQuestion: 'delete-refused-status',
    async run(ctx) {
      const before = await snapshotViews(ctx);
      const ex = await deleteVoice(ctx, 'system_default', 'main', { probes: 'delete-refused-status' });
      await expectViews(ctx, before, {
        what: 'deleting system_default',
        section: '§2.3, §4.4',
        freeUses: 'kept',
      });
      const code = asEnvelope(ex.json)?.error_code;
      ctx.observe(
        'delete-refused-status',
        `DELETE system_default: HTTP ${ex.status}, error_code ${code ?? 'none'}`,
      );
      for (const endpoint of ['complete', 'stream'] as const) {
        const tts = await synthesize(ctx, endpoint, { generate_text: shortText, voice_id: 'system_default' });
        await expectAudio(ctx, tts, `${endpoint} synthesis with system_default after deleting it`, {
          streamed: endpoint === 'stream',
        });
      }
    },
  },
  {
    id: 'delete.scope.other-org',
    section: '§4.3, §4.4, §5.4',
    severity: 'must',
    title: "another organization's key cannot delete our voice: it stays listed and usable",
    openQuestion: 'delete-refused-status',
    needs: { billable: true, keys: ['otherOrg'] },
    async run(ctx) {
      const id = await createVoice(ctx, 'odel');
      if (!id) return;
      const before = await snapshotViews(ctx);
      const ex = await deleteVoice(ctx, id, 'otherOrg');
      await expectViews(ctx, before, {
        what: `deleting ${id} with another organization's key`,
        section: '§4.4, §5.4',
        freeUses: 'kept',
      });
      const code = asEnvelope(ex.json)?.error_code;
      ctx.observe(
        'delete-refused-status',
        `DELETE of another organization's voice: HTTP ${ex.status}, error_code ${code ?? 'none'}`,
      );
      ctx.check(ex.status < 500, `DELETE with another organization's key answered HTTP ${ex.status}`, {
        request: ex.request,
      });
      ctx.check(
        (await listedIds(ctx)).includes(id),
        `our voice ${id} is gone from our list after another organization deleted it`,
      );
      const tts = await synthesize(ctx, 'complete', { generate_text: shortText, voice_id: id });
      await expectAudio(ctx, tts, `synthesis with ${id} after another organization deleted it`, {
        streamed: false,
      });
    },
  },
];

export const deleteCases: ConformanceCase[] = cases;
