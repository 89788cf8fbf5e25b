import { limits } from '../../../openapi/contract.js';
import { fail, isFailure, ok, render } from '../answer/envelope.js';
import type { Operation } from '../context.js';
import { unixSeconds } from '../platform/clock.js';
import { receiveUpload } from '../request/multipart-upload.js';
import { drain } from '../request/request-body.js';
import { uploadChange } from '../state/persisted-rows.js';

/**
 * POST /v1/files/upload (§4.1): stores one audio file privately and answers with an opaque object key,
 * valid only in the caller's organization, project space and environment. Creates no voice and
 * consumes no clone use. Only successful uploads count against the user's hourly quota.
 */
export const fileUpload: Operation = async ({ request, caller, deps }) => {
  const { state, clock, storage, signer, config } = deps;
  if (!caller.capabilities.upload) {
    await drain(request.body);
    return fail('missingApiKey', 'this API key is not permitted to upload files');
  }
  const ticket = state.rateLimit.take(caller.user, clock.now());
  if (!ticket) {
    await drain(request.body);
    const wait = state.rateLimit.retryAfterSeconds(caller.user, clock.now());
    const limit = `upload limit reached: ${config.uploadsPerHour} uploads per user per hour`;
    // `upload-retry-after`: a profile may say the deployment does not tell when to retry.
    if (!deps.calibration.uploadRetryAfter) return fail('uploadRateLimited', limit);
    return render(fail('uploadRateLimited', `${limit}; retry in ${wait} s`), { 'Retry-After': String(wait) });
  }
  const space = caller.uploadSpace;
  const objectKey = `obj_${(await signer.sign(`upload\u0000${state.uploads.nextSequence()}\u0000${space}`)).slice(0, 40)}`;
  try {
    const received = await receiveUpload(request, storage, objectKey, limits.uploadMaxBytes.value);
    if (isFailure(received)) {
      ticket.release();
      return received;
    }
    ticket.commit(clock.now());
    const record = {
      objectKey,
      fileName: received.fileName,
      size: received.size,
      scene: received.scene ?? '',
      space,
      user: caller.user,
      uploadedAt: unixSeconds(clock),
    };
    state.uploads.add(record);
    await deps.persist(uploadChange(state, record));
    return ok({ object_key: objectKey, file_name: record.fileName, size: record.size, scene: record.scene });
  } catch (error) {
    ticket.release();
    throw error;
  }
};
