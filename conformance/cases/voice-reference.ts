import { type ErrorName, errors, limits } from '../../openapi/contract.js';
import { dataOf, listedIds, referenceKey, saveVoice, uploadFile, uploadForm } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase, PointId } from '../toolkit/context.js';
import { expectOk, expectRefusal } from '../toolkit/expect.js';
import type { FixtureRole } from '../toolkit/run-state.js';
import { expectViews, snapshotViews } from '../toolkit/views.js';
import type { ExtraKeyName } from '../types.js';

/** Save a voice from `ref`, expect the refusal, and check no voice appeared. */
async function refuseReference(
  ctx: CaseContext,
  ref: string,
  what: string,
  error: ErrorName | null,
  opts: {
    readonly key?: ExtraKeyName | 'main';
    readonly question?: string;
    /** The profile point the save probes; null: none (its answer belongs to no point of a profile). */
    readonly probes?: PointId | null;
  } = {},
): Promise<void> {
  const id = ctx.newVoiceId('ref');
  const key = opts.key ?? 'main';
  // The views of the key that saved: a voice created in another organization would only show there.
  const before = await snapshotViews(ctx, key);
  const entry = error ? errors[error] : undefined;
  const probes = opts.probes === undefined ? probedPoint(entry?.code, opts.question) : opts.probes;
  const ex = await saveVoice(ctx, { voice_id: id, ref_audio: ref }, key, undefined, probes ? { probes } : {});
  expectRefusal(ctx, ex, {
    what,
    ...(entry ? { status: entry.status, statusLevel: 'observe', code: entry.code } : {}),
    question: opts.question ?? 'voice-save-statuses',
  });
  await expectViews(ctx, before, { what, section: '§4.2', absent: [id], freeUses: 'kept' });
}

/** The profile point a refused save probes: the open question it names, or the status of its code. */
function probedPoint(code: number | undefined, question: string | undefined): PointId {
  if (question === 'ref-audio-not-accessible' || question === 'voice-cloning-disabled-error') return question;
  return `voice-save-statuses/${code}` as PointId;
}

interface ExpectedRefusal {
  readonly name: string;
  readonly role: FixtureRole;
  readonly error: ErrorName;
  readonly what: string;
  readonly limit?: string;
  /** A service may refuse this file already at upload (it sniffs content). */
  readonly uploadMayRefuse?: boolean;
}

const verdicts: readonly ExpectedRefusal[] = [
  {
    name: 'too-large',
    role: 'over-20mib',
    error: 'refAudioTooLarge',
    what: 'a reference over 20 MiB',
    limit: 'referenceMaxBytes',
  },
  {
    name: 'corrupt',
    role: 'corrupt',
    error: 'refAudioUnsupported',
    what: 'a corrupt reference',
    uploadMayRefuse: true,
  },
  {
    name: 'flac-renamed',
    role: 'flac-named-wav',
    error: 'refAudioUnsupported',
    what: 'FLAC bytes named .wav',
    uploadMayRefuse: true,
  },
  {
    name: 'too-long',
    role: 'long-60.5s',
    error: 'refAudioTooLong',
    what: 'a 60.5 s reference',
    limit: 'referenceMaxSeconds',
  },
  {
    name: 'too-short',
    role: 'short-2.9s',
    error: 'refAudioTooShort',
    what: 'a 2.9 s reference',
    limit: 'referenceMinSeconds',
  },
  { name: 'silence', role: 'silence', error: 'refAudioTooShort', what: 'a reference of silence' },
  { name: 'near-silence', role: 'near-silence', error: 'refAudioTooShort', what: 'a near-silent reference' },
  {
    name: 'long-pause',
    role: 'long-pause',
    error: 'refAudioPauseTooLong',
    what: 'a reference with a long pause',
  },
];

/** §4.2, §7.2: each reference-audio verdict, code asserted, status observed. */
const verdictCases: ConformanceCase[] = verdicts.map(
  (v): ConformanceCase => ({
    id: `voice-save.reference.${v.name}`,
    section: '§4.2, §7.2',
    severity: 'must',
    title: `${v.what} is refused with error_code ${errors[v.error].code} (status observed)`,
    openQuestion: 'voice-save-statuses',
    covers: { codes: [errors[v.error].code], ...(v.limit ? { limits: [v.limit] } : {}) },
    async run(ctx) {
      const file = await ctx.state.fixture(v.role);
      if (!file) return ctx.fail(`the ${v.role} fixture is not available`);
      // A fixture an earlier case uploaded is reused: 30 uploads an hour is the whole quota (§8).
      const cached = ctx.state.fixtureKeys.get(v.role);
      if (cached !== undefined) return refuseReference(ctx, cached, `saving a voice from ${v.what}`, v.error);
      const up = await uploadForm(ctx, { scene: 'audio', file });
      const objectKey = dataOf(up)?.object_key;
      if (typeof objectKey !== 'string') {
        if (v.uploadMayRefuse && up.status >= 400) {
          ctx.observe('upload-content-check', `${v.what}: refused at upload with HTTP ${up.status}`);
          return;
        }
        return ctx.fail(
          `uploading ${v.what} failed with HTTP ${up.status}; upload only stores files (§4.1)`,
          {
            request: up.request,
          },
        );
      }
      ctx.state.fixtureKeys.set(v.role, objectKey);
      if (v.uploadMayRefuse) ctx.observe('upload-content-check', `${v.what}: accepted at upload`);
      await refuseReference(ctx, objectKey, `saving a voice from ${v.what}`, v.error);
    },
  }),
);

/** §2.2, §5.4: an object key is valid only in its organization, project space and environment. */
const scopes: ConformanceCase[] = (
  [
    ['otherProject', 'another project space'],
    ['otherEnv', 'another API environment'],
    ['otherOrg', 'another organization'],
  ] as const
).map(
  ([key, what]): ConformanceCase => ({
    id: `voice-save.scope.${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    section: '§2.2, §4.2, §5.4',
    severity: 'must',
    title: `an object key uploaded by the main key is refused to a key of ${what}`,
    openQuestion: 'ref-audio-not-accessible',
    needs: { keys: [key] },
    async run(ctx) {
      const ref = await referenceKey(ctx);
      if (!ref) return;
      await refuseReference(ctx, ref, `saving with an object key of ${what}`, 'refAudioNotAccessible', {
        key,
        question: 'ref-audio-not-accessible',
      });
    },
  }),
);

/** Upload `role`, save a voice from it and expect success; the saved id, or undefined. */
async function acceptReference(
  ctx: CaseContext,
  role: FixtureRole,
  what: string,
): Promise<string | undefined> {
  const file = await ctx.state.fixture(role);
  if (!file) {
    ctx.fail(`the ${role} fixture is not available`);
    return undefined;
  }
  // An upload of the same fixture earlier in the run is reused: 30 uploads an hour is the whole quota.
  const objectKey = ctx.state.fixtureKeys.get(role) ?? (await uploadFile(ctx, file));
  if (!objectKey) return undefined;
  ctx.state.fixtureKeys.set(role, objectKey);
  const id = ctx.newVoiceId('ok');
  const before = await snapshotViews(ctx);
  const ex = await saveVoice(ctx, { voice_id: id, ref_audio: objectKey });
  if (!expectOk(ctx, ex, `saving a voice from ${what} (${file.name}, ${file.bytes.byteLength} bytes)`))
    return undefined;
  await expectViews(ctx, before, {
    what: `saving ${id} from ${what}`,
    section: '§4.2',
    added: [id],
    freeUses: 'charged',
  });
  return id;
}

/** §4.2: references the rules accept, in every container and at the edges of the ranges. */
const accepted: ConformanceCase[] = [
  {
    id: 'voice-save.reference.formats',
    section: '§4.2',
    severity: 'must',
    title: 'speech references in MP3, M4A (AAC), WebM (Opus) and OGG (Opus) are accepted',
    needs: { billable: true },
    async run(ctx) {
      const made: string[] = [];
      for (const [role, what] of [
        ['mp3', 'MP3 speech'],
        ['m4a', 'M4A (AAC) speech'],
        ['webm', 'WebM (Opus) speech'],
        ['ogg', 'OGG (Opus) speech'],
      ] as const) {
        const id = await acceptReference(ctx, role, what);
        if (id) made.push(id);
      }
      const ids = await listedIds(ctx);
      const missing = made.filter((id) => !ids.includes(id));
      ctx.check(missing.length === 0, `saved voices are not listed: ${missing.join(', ')}`);
    },
  },
  {
    id: 'voice-save.reference.duration-in-range',
    section: '§4.2, §8',
    severity: 'must',
    title: `WAV references of 3.2 s, 59.5 s and exactly ${limits.referenceMinSeconds.value}.000 s / ${limits.referenceMaxSeconds.value}.000 s are accepted`,
    needs: { billable: true },
    covers: { limits: ['referenceMinSeconds', 'referenceMaxSeconds'] },
    async run(ctx) {
      // 20016 is "shorter than 3 seconds" and 20015 "longer than 60 seconds" (§7.2): both edges are in.
      for (const [role, what] of [
        ['valid-3.2s', 'a 3.2 s WAV'],
        ['valid-59.5s', 'a 59.5 s WAV'],
        ['valid-3s', 'a WAV of exactly 3.000 s'],
        ['valid-60s', 'a WAV of exactly 60.000 s'],
      ] as const) {
        await acceptReference(ctx, role, what);
      }
    },
  },
  {
    id: 'voice-save.reference.size-at-limit',
    section: '§4.2, §8',
    severity: 'must',
    title: `a reference of exactly ${limits.referenceMaxBytes.value} bytes (20 MiB) is accepted`,
    needs: { billable: true, include: ['large-upload'] },
    covers: { limits: ['referenceMaxBytes'] },
    async run(ctx) {
      await acceptReference(ctx, 'exactly-20mib', 'a WAV of exactly 20 MiB');
    },
  },
];

const others: ConformanceCase[] = [
  {
    id: 'voice-save.capability.no-clone',
    section: '§4.2, §5.3',
    severity: 'must',
    title: 'a key without Voice Cloning cannot create a voice (status and code observed)',
    openQuestion: 'voice-cloning-disabled-error',
    needs: { keys: ['noClone'] },
    async run(ctx) {
      const ref = await referenceKey(ctx);
      if (!ref) return;
      await refuseReference(ctx, ref, 'saving with a key without Voice Cloning', null, {
        key: 'noClone',
        question: 'voice-cloning-disabled-error',
      });
    },
  },
  {
    id: 'voice-save.reference.unknown-object-key',
    section: '§4.2',
    severity: 'must',
    title: 'an object key nobody uploaded is refused (code observed)',
    openQuestion: 'ref-audio-not-accessible',
    run: (ctx) =>
      refuseReference(
        ctx,
        `voice-kit-unknown-${ctx.state.prefix}object`,
        'saving from an unknown object key',
        null,
        {
          question: 'ref-audio-not-accessible',
        },
      ),
  },
  {
    id: 'voice-save.reference.url',
    section: '§4.2',
    severity: 'must',
    title: 'a voice saved from a publicly reachable http(s) URL of a reference recording is accepted',
    needs: { billable: true, referenceUrl: true },
    async run(ctx) {
      const url = ctx.state.referenceUrl;
      if (!url) return ctx.fail('no reference URL is configured');
      const id = ctx.newVoiceId('url');
      const ex = await saveVoice(ctx, { voice_id: id, ref_audio: url });
      if (!expectOk(ctx, ex, `saving a voice from the URL ${url}`)) return;
      ctx.check((await listedIds(ctx)).includes(id), `the voice ${id} saved from a URL is not listed`);
    },
  },
  {
    id: 'voice-save.reference.unreachable-url',
    section: '§4.2',
    severity: 'must',
    title: 'a URL that cannot be fetched is refused (code observed)',
    openQuestion: 'ref-audio-not-accessible',
    run: (ctx) =>
      refuseReference(
        ctx,
        'https://voice-kit.invalid/reference.wav',
        'saving from an unreachable URL',
        null,
        {
          question: 'ref-audio-not-accessible',
          // An unreachable URL is not what the point is about (an object key of elsewhere, §2.2).
          probes: null,
        },
      ),
  },
  {
    id: 'voice-save.request.wrong-content-type',
    section: '§4.2',
    severity: 'must',
    title: 'a save without Content-Type application/json is refused (code observed)',
    openQuestion: 'general-errors',
    async run(ctx) {
      const ref = await referenceKey(ctx);
      if (!ref) return;
      const id = ctx.newVoiceId('ct');
      const before = await snapshotViews(ctx);
      const ex = await saveVoice(ctx, { voice_id: id, ref_audio: ref }, 'main', {
        'content-type': 'text/plain',
      });
      expectRefusal(ctx, ex, { what: 'a save sent as text/plain', question: 'general-errors' });
      await expectViews(ctx, before, {
        what: 'a save sent as text/plain',
        section: '§4.2',
        absent: [id],
        freeUses: 'kept',
      });
    },
  },
  {
    id: 'voice-save.request.missing-ref-audio',
    section: '§4.2',
    severity: 'must',
    title: 'a save without ref_audio is refused (code observed)',
    openQuestion: 'general-errors',
    async run(ctx) {
      const id = ctx.newVoiceId('noref');
      const before = await snapshotViews(ctx);
      const ex = await saveVoice(ctx, { voice_id: id });
      expectRefusal(ctx, ex, { what: 'a save without ref_audio', question: 'general-errors' });
      await expectViews(ctx, before, {
        what: 'a save without ref_audio',
        section: '§4.2',
        absent: [id],
        freeUses: 'kept',
      });
    },
  },
  {
    id: 'voice-save.reference.duration-boundaries',
    section: '§4.2, §8',
    severity: 'observe',
    title: 'compressed (MP3) references of exactly 3 s and 60 s: accepted or not (encoder padding)',
    openQuestion: 'reference-duration-boundaries',
    needs: { billable: true },
    covers: { limits: ['referenceMinSeconds', 'referenceMaxSeconds'] },
    async run(ctx) {
      // The exact WAV edges are a must (voice-save.reference.duration-in-range); how a service counts
      // the padding of a compressed file is not stated.
      for (const role of ['mp3-3s', 'mp3-60s'] as const) {
        const file = await ctx.state.fixture(role);
        if (!file) continue;
        const up = await uploadForm(ctx, { scene: 'audio', file });
        const key = dataOf(up)?.object_key;
        if (typeof key !== 'string') continue;
        const ex = await saveVoice(
          ctx,
          { voice_id: ctx.newVoiceId('dur'), ref_audio: key },
          'main',
          undefined,
          {
            probes: 'reference-duration-boundaries',
            aspect: role === 'mp3-3s' ? 'shortest' : 'longest',
          },
        );
        ctx.observe('reference-duration-boundaries', `${role}: HTTP ${ex.status}`);
      }
      ctx.note(`limits: ${limits.referenceMinSeconds.value}–${limits.referenceMaxSeconds.value} s`);
    },
  },
];

export const voiceReferenceCases: ConformanceCase[] = [...verdictCases, ...accepted, ...scopes, ...others];
