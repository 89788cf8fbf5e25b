import { errors, upload } from '../../openapi/contract.js';
import { dataOf, uploadForm } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import { expectOk, expectRefusal } from '../toolkit/expect.js';
import type { FixtureRole } from '../toolkit/run-state.js';
import { expectViews, snapshotViews } from '../toolkit/views.js';
import { isUrl, stringsIn, tinyWav } from './support.js';

const scene = upload.scenes[0];

/** §2.2: the data of a successful upload, field by field. */
function checkUploadData(
  ctx: CaseContext,
  request: string,
  data: Record<string, unknown>,
  name: string,
  size: number,
) {
  const { object_key, file_name, size: gotSize, scene: gotScene } = data;
  ctx.check(
    typeof object_key === 'string' && object_key !== '',
    `object_key is ${JSON.stringify(object_key)}`,
    { request },
  );
  ctx.check(
    !isUrl(object_key),
    `object_key ${JSON.stringify(object_key)} is an address, not a private identifier (§2.2)`,
    {
      request,
    },
  );
  ctx.check(
    file_name === name,
    `file_name is ${JSON.stringify(file_name)}, expected the original ${JSON.stringify(name)}`,
    {
      request,
    },
  );
  ctx.check(gotSize === size, `size is ${JSON.stringify(gotSize)}, expected the byte count ${size}`, {
    request,
  });
  ctx.check(gotScene === scene, `scene is ${JSON.stringify(gotScene)}, expected ${JSON.stringify(scene)}`, {
    request,
  });
  for (const [pointer, value] of stringsIn(data, '/data')) {
    ctx.check(
      !isUrl(value),
      `${pointer} holds an address (${value}); no public download address may be returned (§2.2)`,
      {
        request,
        pointer,
      },
    );
  }
}

const accepted: ConformanceCase[] = [
  {
    id: 'upload.accepts.wav',
    section: '§4.1, §2.2',
    severity: 'must',
    title:
      'a .wav upload named "Reference Take-1.wav" answers 200 with object_key, file_name (exactly that), size and scene, and no address',
    async run(ctx) {
      // A name with a space, capitals and a hyphen: file_name is the original name (§2.2), kept exactly.
      const file = { ...(await ctx.state.referenceAudio()), name: 'Reference Take-1.wav' };
      const ex = await uploadForm(ctx, { scene, file: { ...file, type: 'audio/wav' } });
      const data = dataOf(ex);
      if (!expectOk(ctx, ex, `uploading ${file.name}`) || !data) return;
      checkUploadData(ctx, ex.request, data, file.name, file.bytes.byteLength);
      if (typeof data.object_key === 'string') ctx.state.referenceKeys.set('main', data.object_key);
    },
  },
  ...(['mp3', 'm4a', 'ogg', 'webm'] as const).map(
    (ext): ConformanceCase => ({
      id: `upload.extension.${ext}-accepted`,
      section: '§4.1',
      severity: 'must',
      title: `a .${ext} upload is accepted`,
      async run(ctx) {
        const file = await ctx.state.fixture(ext as FixtureRole);
        if (!file) return ctx.fail(`the ${ext} fixture is not available`);
        const ex = await uploadForm(ctx, { scene, file });
        const data = dataOf(ex);
        if (expectOk(ctx, ex, `uploading ${file.name}`) && data) {
          checkUploadData(ctx, ex.request, data, file.name, file.bytes.byteLength);
          if (typeof data.object_key === 'string') ctx.state.fixtureKeys.set(ext, data.object_key);
        }
      },
    }),
  ),
];

/** §4.1, §7.1: refused extensions, named and unnamed. */
const refusedExtensions: ConformanceCase[] = [
  ...upload.refusedExtensions.map((ext) => ({ name: ext, file: `reference.${ext}` })),
  { name: 'none', file: 'reference' },
  { name: 'txt', file: 'reference.txt' },
  { name: 'flac-uppercase', file: 'reference.FLAC' },
  { name: 'double-wav-flac', file: 'reference.wav.flac' },
].map(
  (c): ConformanceCase => ({
    id: `upload.extension.${c.name}-refused`,
    section: '§4.1, §7.1',
    severity: 'must',
    title: `a file named ${c.file} is refused with ${errors.unsupportedExtension.status}/${errors.unsupportedExtension.code}`,
    covers: { codes: [errors.unsupportedExtension.code] },
    async run(ctx) {
      const before = await snapshotViews(ctx);
      const ex = await uploadForm(ctx, { scene, file: { name: c.file, bytes: tinyWav() } });
      expectRefusal(ctx, ex, {
        what: `an upload named ${c.file}`,
        status: errors.unsupportedExtension.status,
        code: errors.unsupportedExtension.code,
      });
      await expectViews(ctx, before, {
        what: `a refused upload named ${c.file}`,
        section: '§4.1',
        freeUses: 'kept',
      });
    },
  }),
);

/** §4.1 lists lowercase extensions; whether `.WAV` is accepted (case-insensitivity) is not stated. */
const upperCaseWav: ConformanceCase = {
  id: 'upload.extension.wav-uppercase',
  section: '§4.1',
  severity: 'observe',
  title: 'whether an upload named reference.WAV is accepted',
  openQuestion: 'upload-content-check',
  async run(ctx) {
    const ex = await uploadForm(ctx, { scene, file: { name: 'reference.WAV', bytes: tinyWav() } });
    const code = (ex.json as { error_code?: unknown } | undefined)?.error_code;
    ctx.observe(
      'upload-content-check',
      `reference.WAV: HTTP ${ex.status}, error_code ${JSON.stringify(code)}`,
    );
  },
};

/** §7.1: each way a multipart request is invalid. */
const invalidRequests: ConformanceCase[] = [
  {
    name: 'not-multipart',
    what: 'a JSON body instead of multipart/form-data',
    send: (ctx: CaseContext) =>
      ctx.call({
        op: 'uploadFile',
        method: 'POST',
        path: '/v1/files/upload',
        json: { scene, file: 'reference.wav' },
      }),
  },
  {
    name: 'missing-file',
    what: 'a form without the file field',
    send: (ctx: CaseContext) => uploadForm(ctx, { scene }),
  },
  {
    name: 'empty-file',
    what: 'an empty file',
    send: (ctx: CaseContext) =>
      uploadForm(ctx, { scene, file: { name: 'empty.wav', bytes: new Uint8Array(0) } }),
  },
  {
    name: 'unsupported-scene',
    what: 'scene "video"',
    send: (ctx: CaseContext) =>
      uploadForm(ctx, { scene: 'video', file: { name: 'reference.wav', bytes: tinyWav() } }),
  },
  {
    name: 'missing-scene',
    what: 'a form without the scene field',
    send: (ctx: CaseContext) => uploadForm(ctx, { file: { name: 'reference.wav', bytes: tinyWav() } }),
  },
].map(
  (c): ConformanceCase => ({
    id: `upload.request.${c.name}`,
    section: '§4.1, §7.1',
    severity: 'must',
    title: `${c.what} is refused with ${errors.invalidUpload.status}/${errors.invalidUpload.code}`,
    covers: { codes: [errors.invalidUpload.code] },
    async run(ctx) {
      const before = await snapshotViews(ctx);
      expectRefusal(ctx, await c.send(ctx), {
        what: `an upload with ${c.what}`,
        status: errors.invalidUpload.status,
        code: errors.invalidUpload.code,
      });
      await expectViews(ctx, before, {
        what: `a refused upload with ${c.what}`,
        section: '§4.1',
        freeUses: 'kept',
      });
    },
  }),
);

const sideEffects: ConformanceCase = {
  id: 'upload.side-effects.no-voice-no-clone-use',
  section: '§4.1',
  severity: 'must',
  title: 'an upload creates no voice and consumes no voice-cloning use',
  runFirst: true,
  async run(ctx) {
    const before = await snapshotViews(ctx);
    ctx.check(
      before.free !== 0,
      'cannot verify: remainingFreeCloneCount is already 0, so an upload that consumed a free use would not show',
      { level: 'should' },
    );
    const ex = await uploadForm(ctx, { scene, file: await ctx.state.referenceAudio() });
    if (!expectOk(ctx, ex, 'uploading the reference')) return;
    await expectViews(ctx, before, {
      what: 'an upload',
      section: '§4.1',
      freeUses: 'kept',
      othersKept: true,
    });
  },
};

export const uploadCases: ConformanceCase[] = [
  ...accepted,
  ...refusedExtensions,
  upperCaseWav,
  ...invalidRequests,
  sideEffects,
];
