/** Upload limits of §7.1 and §8 that cost bandwidth or quota: opt-in groups, and the mock's fault scenarios. */
import { type ErrorName, errors, limits, upload } from '../../openapi/contract.js';
import { dataOf, uploadForm } from '../toolkit/actions.js';
import { type CaseContext, type ConformanceCase, uploadsOfMainUser } from '../toolkit/context.js';
import { expectOk, expectRefusal } from '../toolkit/expect.js';
import type { Exchange } from '../toolkit/http.js';
import { streamedWavUpload } from '../toolkit/multipart.js';
import { tinyWav } from './support.js';

const maxBytes = limits.uploadMaxBytes.value;

/** Upload a generated WAV of exactly `size` bytes, streamed. */
async function uploadOfSize(ctx: CaseContext, size: number): Promise<Exchange | undefined> {
  const up = streamedWavUpload(`size-${size}.wav`, size, `voicekit${ctx.state.prefix}boundary`);
  try {
    return await ctx.call({
      op: 'uploadFile',
      method: 'POST',
      path: '/v1/files/upload',
      body: up.body,
      headers: { 'content-type': up.contentType, 'content-length': String(up.contentLength) },
    });
  } catch (e) {
    // A server may answer and close before the body is sent; fetch then reports a broken pipe.
    ctx.fail(`the ${size}-byte upload failed at the transport level: ${(e as Error).message}`);
    return undefined;
  }
}

const sizeCases: ConformanceCase[] = [
  {
    id: 'upload.size.over-limit',
    section: '§4.1, §7.1, §8',
    severity: 'must',
    title: `a file of 50 MiB + 1 byte is refused with ${errors.fileTooLarge.status}/${errors.fileTooLarge.code}`,
    needs: { include: ['large-upload'] },
    covers: { codes: [errors.fileTooLarge.code], limits: ['uploadMaxBytes'] },
    async run(ctx) {
      const ex = await uploadOfSize(ctx, maxBytes + 1);
      if (!ex) return;
      expectRefusal(ctx, ex, {
        what: `an upload of ${maxBytes + 1} bytes`,
        status: errors.fileTooLarge.status,
        code: errors.fileTooLarge.code,
      });
    },
  },
  {
    id: 'upload.size.at-limit',
    section: '§4.1, §8',
    severity: 'must',
    title: 'a file of exactly 50 MiB is accepted and its size reported',
    needs: { include: ['large-upload'] },
    covers: { limits: ['uploadMaxBytes'] },
    async run(ctx) {
      const ex = await uploadOfSize(ctx, maxBytes);
      if (!ex || !expectOk(ctx, ex, `an upload of exactly ${maxBytes} bytes`)) return;
      ctx.state.uploads += 1;
      const size = dataOf(ex)?.size;
      ctx.check(size === maxBytes, `size is ${JSON.stringify(size)}, expected ${maxBytes}`, {
        request: ex.request,
      });
    },
  },
];

const rateLimit: ConformanceCase = {
  id: 'upload.rate-limit.exceeded',
  section: '§7.1, §8',
  severity: 'must',
  title: `more than ${limits.uploadRatePerHour.value} uploads in an hour are refused with ${errors.uploadRateLimited.status}/${errors.uploadRateLimited.code}`,
  needs: { include: ['rate-limit'] },
  covers: {
    codes: [errors.uploadRateLimited.code],
    limits: ['uploadRatePerHour', 'uploadRateWindowSeconds'],
  },
  runLast: true,
  async run(ctx) {
    const attempts = limits.uploadRatePerHour.value + 1;
    const earlier = uploadsOfMainUser(ctx.state);
    let limited: Exchange | undefined;
    let accepted = 0;
    for (let i = 0; i < attempts && !limited; i++) {
      const ex = await uploadForm(ctx, {
        scene: upload.scenes[0],
        file: { name: `rate-${i}.wav`, bytes: tinyWav() },
      });
      if (ex.status === 200) accepted += 1;
      else limited = ex;
    }
    ctx.note(`${accepted} uploads accepted in this case, ${ctx.state.uploads} in the run, before the limit`);
    if (!ctx.check(limited !== undefined, `${attempts} uploads in a row were all accepted`) || !limited)
      return;
    // Only stored uploads count: the run's refused ones must have left the quota as it was. A should:
    // the run cannot see uploads of this user earlier in the hour (a run before this one, another
    // client), which shorten the quota as well.
    const limit = limits.uploadRatePerHour.value;
    ctx.check(
      earlier.accepted + accepted >= limit,
      `the upload quota ran out after ${earlier.accepted + accepted} accepted uploads of this user (${accepted} in this case), short of the ${limit} an hour: ` +
        `the ${earlier.refused} refused uploads of this run were counted against it, unless this user uploaded within the hour before the run (another run, another client) (§4.1, §8)`,
      { request: limited.request, level: 'should' },
    );
    expectRefusal(ctx, limited, {
      what: 'the upload over the limit',
      status: errors.uploadRateLimited.status,
      code: errors.uploadRateLimited.code,
    });
    if (ctx.state.keys.otherProject) {
      const shared = await uploadForm(
        ctx,
        { scene: upload.scenes[0], file: { name: 'rate-shared.wav', bytes: tinyWav() } },
        'otherProject',
      );
      ctx.check(
        shared.status === errors.uploadRateLimited.status,
        `another key of the same user uploaded (HTTP ${shared.status}); the limit is shared`,
        {
          level: 'should',
          request: shared.request,
        },
      );
    }
  },
};

/** The faults a deployment cannot be asked for; the kit's mock renders them on `Prefer: code=N`. */
const faults: ConformanceCase[] = (
  ['uploadTimeout', 'storageUnavailable', 'unexpected'] as const satisfies ErrorName[]
).map(
  (name): ConformanceCase => ({
    id: `upload.fault.${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    section: '§7.1',
    severity: 'must',
    title: `the mock renders ${errors[name].condition} as ${errors[name].status}/${errors[name].code}`,
    needs: { mockOnly: true },
    covers: { codes: [errors[name].code] },
    async run(ctx) {
      const ex = await ctx.call({
        op: 'uploadFile',
        method: 'POST',
        path: '/v1/files/upload',
        headers: { prefer: `code=${errors[name].status}` },
        body: (() => {
          const fd = new FormData();
          fd.set('scene', 'audio');
          fd.set('file', new Blob([tinyWav() as Uint8Array<ArrayBuffer>]), 'fault.wav');
          return fd;
        })(),
      });
      expectRefusal(ctx, ex, {
        what: `Prefer: code=${errors[name].status}`,
        status: errors[name].status,
        code: errors[name].code,
      });
    },
  }),
);

export const uploadLimitCases: ConformanceCase[] = [...sizeCases, rateLimit, ...faults];
