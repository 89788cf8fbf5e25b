/** Deviations of the envelope, authentication and upload rules (§2.1, §2.2, §4.1, §5, §7.1). */
import { errors, limits } from '../../openapi/contract.js';
import { type Deviation, isList, isUpload, refuse, rewriteJson } from './deviation-kit.js';

const data = (b: Record<string, unknown>) => b.data as Record<string, unknown>;

/** Uploads seen by the clone-use deviation (per harness run; reset with a new Deviation list). */
let uploadsSeen = 0;

export const uploadDeviations: readonly Deviation[] = [
  {
    name: 'upload refusal answers 422 instead of 400',
    only: ['upload.extension.flac-refused'],
    caughtBy: 'upload.extension.flac-refused',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 400,
      (b) => b,
      () => 422,
    ),
  },
  {
    name: 'refused extension answers error_code 10001 instead of 20012',
    only: ['upload.extension.flac-refused'],
    caughtBy: 'upload.extension.flac-refused',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 400,
      (b) => ({ ...b, error_code: errors.invalidUpload.code }),
    ),
  },
  {
    name: 'succeed is true on an error',
    only: ['envelope.failure.upload'],
    caughtBy: 'envelope.failure.upload',
    handle: rewriteJson(
      (_, res) => res.status >= 400,
      (b) => ({ ...b, succeed: true }),
    ),
  },
  {
    name: 'data is not null on an error',
    only: ['envelope.failure.upload'],
    caughtBy: 'envelope.failure.upload',
    handle: rewriteJson(
      (_, res) => res.status >= 400,
      (b) => ({ ...b, data: {} }),
    ),
  },
  {
    name: 'error_message is not empty on success',
    only: ['envelope.success.list'],
    caughtBy: 'envelope.success.list',
    handle: rewriteJson(
      (_, res) => res.status === 200,
      (b) => ({ ...b, error_message: 'OK' }),
    ),
  },
  {
    name: 'a refused extension (.flac) is accepted',
    only: ['upload.extension.flac-refused'],
    caughtBy: 'upload.extension.flac-refused',
    handle: async (req, next) => {
      if (!isUpload(req)) return next(req);
      const form = await req.clone().formData();
      const file = form.get('file');
      if (!(file instanceof File) || !file.name.endsWith('.flac')) return next(req);
      form.set('file', file, file.name.replace(/\.flac$/, '.wav'));
      const headers = new Headers(req.headers);
      headers.delete('content-type');
      return next(new Request(req.url, { method: 'POST', headers, body: form }));
    },
  },
  {
    name: 'the upload size limit is off by one (exactly 50 MiB refused)',
    only: ['upload.size.at-limit'],
    caughtBy: 'upload.size.at-limit',
    handle: async (req, next) => {
      const length = Number(req.headers.get('content-length') ?? 0);
      if (!isUpload(req) || length < limits.uploadMaxBytes.value) return next(req);
      await req.body?.cancel();
      return refuse(errors.fileTooLarge.status, errors.fileTooLarge.code, 'file too large');
    },
  },
  {
    name: 'a file over 50 MiB answers error_code 10001 instead of 20010',
    only: ['upload.size.over-limit'],
    caughtBy: 'upload.size.over-limit',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 413,
      (b) => ({ ...b, error_code: errors.invalidUpload.code }),
    ),
  },
  {
    name: 'the upload rate limit answers 403 instead of 429',
    only: ['upload.rate-limit.exceeded'],
    caughtBy: 'upload.rate-limit.exceeded',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 429,
      (b) => b,
      () => 403,
    ),
  },
  {
    name: 'upload returns a public download address',
    only: ['upload.accepts.wav'],
    caughtBy: 'upload.accepts.wav',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 200,
      (b) => ({ ...b, data: { ...data(b), download_url: 'https://cdn.example.com/reference.wav' } }),
    ),
  },
  {
    name: 'upload reports a size that is not the byte count',
    only: ['upload.accepts.wav'],
    caughtBy: 'upload.accepts.wav',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 200,
      (b) => ({ ...b, data: { ...data(b), size: Number(data(b).size) + 1 } }),
    ),
  },
  {
    name: 'an upload without X-API-Key is accepted',
    only: ['auth.uploadFile.missing-key'],
    caughtBy: 'auth.uploadFile.missing-key',
    handle: (req, next) => {
      if (!isUpload(req) || req.headers.has('x-api-key')) return next(req);
      const headers = new Headers(req.headers);
      headers.set('x-api-key', 'mock-key');
      return next(new Request(req, { headers }));
    },
  },
  {
    name: 'an upload consumes a free clone use',
    only: ['upload.side-effects.no-voice-no-clone-use'],
    caughtBy: 'upload.side-effects.no-voice-no-clone-use',
    handle: async (req, next) => {
      const res = await next(req);
      if (isUpload(req) && res.status === 200) uploadsSeen += 1;
      if (!isList(req) || res.status !== 200) return res;
      return rewriteJson(
        () => true,
        (b) => ({
          ...b,
          data: {
            ...data(b),
            remainingFreeCloneCount: Math.max(0, Number(data(b).remainingFreeCloneCount) - uploadsSeen),
          },
        }),
      )(req, async () => res);
    },
  },
];
