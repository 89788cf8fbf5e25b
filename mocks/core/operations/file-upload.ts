import { limits } from '../../../openapi/contract.js';
import { fail, isFailure, ok, render } from '../answer/envelope.js';
import type { Operation } from '../context.js';
import { unixSeconds } from '../platform/clock.js';
import { receiveUpload } from '../request/multipart-upload.js';
import { drain } from '../request/request-body.js';

/**
 * POST /v1/files/upload (§4.1): stores one audio file privately and answers with an opaque object key,
 * valid only in the caller's organization, project space and environment. Creates no voice and
 * consumes no clone use. Only successful uploads count against the user's hourly quota.
 */
export const fileUpload: Operation = async ({ request, caller, deps }) => {
  const { clock, storage, signer, config } = deps;
  if (!caller.capabilities.upload) {
    await drain(request.body);
    return fail('missingApiKey', 'this API key is not permitted to upload files');
  }
  const limited = (wait: number) => {
    const limit = `upload limit reached: ${config.uploadsPerHour} uploads per user per hour`;
    // `upload-retry-after`: a profile may say the deployment does not tell when to retry.
    if (!deps.calibration.uploadRetryAfter) return fail('uploadRateLimited', limit);
    return render(fail('uploadRateLimited', `${limit}; retry in ${wait} s`), { 'Retry-After': String(wait) });
  };
  const slot = await deps.decide.takeUpload(caller.user, clock.now());
  if ('retryAfterSeconds' in slot) {
    await drain(request.body);
    return limited(slot.retryAfterSeconds);
  }
  const space = caller.uploadSpace;
  const sequence = await deps.decide.nextUploadSequence();
  const objectKey = `obj_${(await signer.sign(`upload\u0000${sequence}\u0000${space}`)).slice(0, 40)}`;
  try {
    const received = await receiveUpload(request, storage, objectKey, limits.uploadMaxBytes.value);
    if (isFailure(received)) {
      slot.release();
      return received;
    }
    const record = {
      objectKey,
      fileName: received.fileName,
      size: received.size,
      scene: received.scene ?? '',
      space,
      user: caller.user,
      uploadedAt: unixSeconds(clock),
    };
    const refused = await slot.commit(record, clock.now());
    if (refused) {
      // Another mock of a shared state spent the last slot while the bytes came in.
      await storage.remove(objectKey).catch(() => {});
      return limited(refused.retryAfterSeconds);
    }
    return ok({ object_key: objectKey, file_name: record.fileName, size: record.size, scene: record.scene });
  } catch (error) {
    slot.release();
    throw error;
  }
};
