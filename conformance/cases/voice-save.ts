import { errors, limits } from '../../openapi/contract.js';
import {
  createVoice,
  dataOf,
  listAll,
  listedIds,
  referenceKey,
  saveVoice,
  synthesize,
  uploadFile,
} from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import { expectAudio, expectOk, expectRefusal } from '../toolkit/expect.js';
import { send } from '../toolkit/http.js';
import { expectSelectable, expectViews, snapshotViews } from '../toolkit/views.js';
import { shortText } from './support.js';

const maxLen = limits.voiceIdMaxLength.value;

/** An id of exactly `length` characters under the run prefix. */
function idOfLength(ctx: CaseContext, tag: string, length: number): string {
  const base = ctx.newVoiceId(tag);
  return (base + 'x'.repeat(length)).slice(0, length);
}

/** Refuse `voiceId`, then check no voice of that (normalized) id appeared. */
async function refusedAndAbsent(
  ctx: CaseContext,
  voiceId: string,
  what: string,
  expectCode?: number,
): Promise<void> {
  const ref = await referenceKey(ctx);
  if (!ref) return;
  const before = await snapshotViews(ctx);
  const ex = await saveVoice(ctx, { voice_id: voiceId, ref_audio: ref }, 'main', undefined, {
    ...(expectCode === undefined ? { probes: 'voice-id-invalid-characters' } : {}),
  });
  expectRefusal(ctx, ex, {
    what,
    ...(expectCode === undefined
      ? { question: 'voice-id-invalid-characters' }
      : { status: errors.voiceIdTooLong.status, code: expectCode }),
  });
  const normalized = voiceId.trim().toLowerCase();
  const named = [...new Set([normalized, voiceId])].filter((id) => /^[a-z0-9_-]+$/.test(id));
  await expectViews(ctx, before, {
    what: `the refused save of ${what}`,
    section: '§2.3, §4.2',
    absent: named,
    freeUses: 'kept',
  });
}

const created: ConformanceCase = {
  id: 'voice-save.create.success',
  section: '§4.2',
  severity: 'must',
  title: 'a voice saved from an uploaded reference answers 200 and is listed and selectable',
  needs: { billable: true },
  async run(ctx) {
    const ref = await referenceKey(ctx);
    if (!ref) return;
    const id = ctx.newVoiceId('new');
    const before = await snapshotViews(ctx);
    const ex = await saveVoice(ctx, { voice_id: id, ref_audio: ref });
    if (!expectOk(ctx, ex, 'saving a voice')) return;
    ctx.observe('voice-save-data', `data on success: ${JSON.stringify(dataOf(ex) ?? null)}`);
    await expectViews(ctx, before, {
      what: `saving ${id}`,
      section: '§4.2',
      added: [id],
      freeUses: 'charged',
    });
    const tts = await synthesize(ctx, 'complete', { generate_text: shortText, voice_id: id });
    await expectAudio(ctx, tts, `synthesis with the new voice ${id}`, { streamed: false });
  },
};

const normalized: ConformanceCase = {
  id: 'voice-save.id.normalized',
  section: '§2.3',
  severity: 'must',
  title: 'a new voice_id is trimmed and lowercased: exactly 30 characters after normalization are accepted',
  needs: { billable: true },
  covers: { limits: ['voiceIdMaxLength'] },
  async run(ctx) {
    const id = idOfLength(ctx, 'norm', maxLen);
    const raw = `  ${id.toUpperCase()}\t `;
    const ref = await referenceKey(ctx);
    if (!ref) return;
    const ex = await saveVoice(ctx, { voice_id: raw, ref_audio: ref });
    if (!expectOk(ctx, ex, `saving ${JSON.stringify(raw)} (${maxLen} characters after normalization)`))
      return;
    const ids = await listedIds(ctx);
    ctx.check(
      ids.includes(id),
      `the list does not show the normalized id ${id} (ids: ${ids.slice(0, 5).join(', ')}…)`,
    );
    ctx.check(
      !ids.includes(raw) && !ids.includes(raw.trim()),
      `the list shows the raw id ${JSON.stringify(raw)}`,
    );
    const tts = await synthesize(ctx, 'complete', { generate_text: shortText, voice_id: id });
    await expectAudio(ctx, tts, `synthesis with the normalized id ${id}`, { streamed: false });
  },
};

const tooLong: ConformanceCase = {
  id: 'voice-save.id.too-long',
  section: '§4.2 rule 1, §7.2',
  severity: 'must',
  title: `a voice_id of ${maxLen + 1} characters after normalization is refused with 400/10001`,
  covers: { codes: [errors.voiceIdTooLong.code], limits: ['voiceIdMaxLength'] },
  async run(ctx) {
    await refusedAndAbsent(
      ctx,
      idOfLength(ctx, 'long', maxLen + 1),
      `a ${maxLen + 1}-character voice_id`,
      errors.voiceIdTooLong.code,
    );
    const upper = ` ${idOfLength(ctx, 'long', maxLen + 1).toUpperCase()} `;
    await refusedAndAbsent(
      ctx,
      upper,
      `a ${maxLen + 1}-character voice_id with case and spaces`,
      errors.voiceIdTooLong.code,
    );
  },
};

const invalid: ConformanceCase[] = [
  { name: 'empty', what: 'an empty voice_id', make: () => '' },
  { name: 'blank', what: 'a voice_id of spaces only', make: () => '   ' },
  {
    name: 'space',
    what: 'a voice_id with an inner space',
    make: (c: CaseContext) => `${c.newVoiceId('sp')} x`,
  },
  { name: 'dot', what: 'a voice_id with a dot', make: (c: CaseContext) => `${c.newVoiceId('dot')}.x` },
  { name: 'non-ascii', what: 'a voice_id with "é"', make: (c: CaseContext) => `${c.newVoiceId('acc')}é` },
].map(
  (c): ConformanceCase => ({
    id: `voice-save.id.invalid-${c.name}`,
    section: '§2.3',
    severity: 'must',
    title: `${c.what} is refused and creates nothing (status and code observed)`,
    openQuestion: 'voice-id-invalid-characters',
    covers: { limits: c.name === 'empty' || c.name === 'blank' ? ['voiceIdMinLength'] : [] },
    run: (ctx) => refusedAndAbsent(ctx, c.make(ctx), c.what),
  }),
);

/** The reference bytes behind a voice_url, or undefined when it cannot be fetched. */
async function referenceBytes(ctx: CaseContext, url: string): Promise<Uint8Array | undefined> {
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  const ex = await send(ctx.state.fetch, new Request(url)).catch(() => undefined);
  return ex?.status === 200 ? ex.bytes : undefined;
}

const duplicate: ConformanceCase = {
  id: 'voice-save.id.duplicate',
  section: '§4.2 rule 2, §7.2',
  severity: 'must',
  title: 'saving an existing voice_id again is refused with 10018 and replaces nothing',
  openQuestion: 'voice-save-statuses',
  needs: { billable: true },
  covers: { codes: [errors.voiceIdTaken.code] },
  async run(ctx) {
    const id = await createVoice(ctx, 'dup');
    if (!id) return;
    const find = async () => (await listAll(ctx)).voices.find((v) => v.voice_id === id);
    const before = await find();
    const beforeAudio = before ? await referenceBytes(ctx, before.voice_url) : undefined;
    const other = await ctx.state.fixture('valid-10s');
    const otherKey = other ? await uploadFile(ctx, other) : await referenceKey(ctx);
    const views = await snapshotViews(ctx);
    for (const variant of [id, ` ${id.toUpperCase()} `]) {
      const ex = await saveVoice(ctx, { voice_id: variant, ref_audio: otherKey ?? '' }, 'main', undefined, {
        probes: 'voice-save-statuses/10018',
      });
      expectRefusal(ctx, ex, {
        what: `saving the existing id ${JSON.stringify(variant)} again`,
        status: errors.voiceIdTaken.status,
        statusLevel: 'observe',
        code: errors.voiceIdTaken.code,
        question: 'voice-save-statuses',
      });
    }
    await expectViews(ctx, views, {
      what: `two refused saves of the existing id ${id}`,
      section: '§4.2 rule 2',
      freeUses: 'kept',
    });
    await expectSelectable(ctx, id, true, `after two refused saves of its id`);
    const after = await find();
    if (!ctx.check(after !== undefined, `the voice ${id} disappeared after a duplicate save`)) return;
    ctx.check(
      after?.created_at === before?.created_at,
      `created_at changed from ${before?.created_at} to ${after?.created_at}`,
    );
    const afterAudio = after ? await referenceBytes(ctx, after.voice_url) : undefined;
    if (beforeAudio && afterAudio) {
      ctx.check(
        Buffer.from(beforeAudio).equals(Buffer.from(afterAudio)),
        'the reference audio behind voice_url changed',
      );
    } else ctx.note('voice_url could not be fetched before and after; only created_at was compared');
  },
};

const reserved: ConformanceCase = {
  id: 'voice-save.id.reserved',
  section: '§4.2 rule 2, §7.2',
  severity: 'must',
  title: 'saving the system voice id system_default is refused with 10018',
  openQuestion: 'voice-save-statuses',
  covers: { codes: [errors.voiceIdTaken.code] },
  async run(ctx) {
    const ref = await referenceKey(ctx);
    if (!ref) return;
    const ex = await saveVoice(ctx, { voice_id: 'system_default', ref_audio: ref }, 'main', undefined, {
      probes: 'voice-save-statuses/10018',
    });
    expectRefusal(ctx, ex, {
      what: 'saving the reserved id system_default',
      status: errors.voiceIdTaken.status,
      statusLevel: 'observe',
      code: errors.voiceIdTaken.code,
      question: 'voice-save-statuses',
    });
  },
};

/** A refused save while free uses are left: the refusal must spend none (a spent one shows only then). */
async function refusedWhileFree(ctx: CaseContext, voiceId: string, ref: string, what: string): Promise<void> {
  const before = await snapshotViews(ctx);
  const ex = await saveVoice(ctx, { voice_id: voiceId, ref_audio: ref });
  expectRefusal(ctx, ex, { what });
  await expectViews(ctx, before, {
    what: `the refused save of ${what}`,
    section: '§4.2 rule 3',
    absent: [voiceId.trim().toLowerCase()],
    freeUses: 'kept',
  });
}

const freeUses: ConformanceCase = {
  id: 'voice-save.free-uses.counter',
  section: '§4.2 rule 3, §4.3',
  severity: 'must',
  title:
    'a refused save spends no free use and a creation exactly one while one is left (remainingFreeCloneCount)',
  openQuestion: 'free-uses-and-price',
  needs: { billable: true },
  runFirst: true,
  async run(ctx) {
    const before = await snapshotViews(ctx);
    if (!ctx.check(before.free !== null, 'remainingFreeCloneCount is missing from the list')) return;
    ctx.check(
      before.free !== 0,
      'cannot verify: remainingFreeCloneCount is already 0, so the consumption of a free use cannot be seen',
      { level: 'should' },
    );
    const ref = await referenceKey(ctx);
    if (!ref) return;
    // Refusals first, while a free use is left: one on the id, one on the recording (after its analysis).
    await refusedWhileFree(ctx, idOfLength(ctx, 'fl', maxLen + 1), ref, `a ${maxLen + 1}-character voice_id`);
    const short = await ctx.state.fixture('short-2.9s');
    const shortKey = short
      ? (ctx.state.fixtureKeys.get('short-2.9s') ?? (await uploadFile(ctx, short)))
      : undefined;
    if (shortKey) {
      ctx.state.fixtureKeys.set('short-2.9s', shortKey);
      await refusedWhileFree(ctx, ctx.newVoiceId('fs'), shortKey, 'a 2.9 s reference');
    }
    const start = await snapshotViews(ctx);
    const id = await createVoice(ctx, 'free');
    if (!id) return;
    const after = await expectViews(ctx, start, {
      what: `creating ${id}`,
      section: '§4.2',
      added: [id],
      freeUses: 'charged',
    });
    ctx.observe(
      'free-uses-and-price',
      `remainingFreeCloneCount ${start.free} → ${after.free} after one creation`,
    );
  },
};

export const voiceSaveCases: ConformanceCase[] = [
  created,
  normalized,
  tooLong,
  ...invalid,
  duplicate,
  reserved,
  freeUses,
];
