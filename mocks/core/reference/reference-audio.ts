import { limits } from '../../../openapi/contract.js';
import { type Failure, fail, isFailure, quoted } from '../answer/envelope.js';
import type { ServiceDeps } from '../context.js';
import type { Caller } from '../state/tenancy.js';
import { fetchReference } from './reference-url.js';

/** Reference audio to judge: its bytes, and where they came from. */
export interface ReferenceAudio {
  readonly bytes: Uint8Array;
  readonly fileName: string;
  /** The storage id when the bytes are an upload of the caller; undefined for a fetched URL. */
  readonly uploadId: string | undefined;
}

const isUrl = (ref: string): boolean => /^https?:\/\//i.test(ref);

/**
 * Resolves `ref_audio` (§4.2): an object key of the caller's own organization, project space and
 * environment, or an http(s) URL of a public host, fetched with a timeout and a 20 MiB cap
 * (reference-url.ts). Anything unreachable is refAudioNotAccessible (the `ref-audio-not-accessible` decision); an upload above 20 MiB is
 * refAudioTooLarge without reading its bytes, and so is a URL whose body passes 20 MiB.
 *
 * @example
 * const audio = await loadReference(deps, caller, body.ref_audio);
 */
export async function loadReference(
  deps: ServiceDeps,
  caller: Caller,
  ref: string,
): Promise<ReferenceAudio | Failure> {
  if (isUrl(ref)) {
    const fetched = await fetchReference(deps, ref);
    return isFailure(fetched) ? fetched : { ...fetched, uploadId: undefined };
  }
  // An object key never has a scheme: ftp://, file:// or s3:// is a URL of a kind the spec does not take.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) {
    return fail(
      'refAudioNotAccessible',
      `ref_audio must be the object_key of an upload or an http(s) URL, got ${quoted(ref)}`,
    );
  }
  const record = deps.state.uploads.find(ref, caller.uploadSpace);
  if (!record) {
    return fail(
      'refAudioNotAccessible',
      'ref_audio cannot be read: unknown object key for this project space and environment',
    );
  }
  const max = limits.referenceMaxBytes.value;
  if (record.size > max) {
    return fail(
      'refAudioTooLarge',
      `reference audio is ${record.size} bytes; at most ${max} bytes (20 MiB) are allowed`,
    );
  }
  const bytes = await deps.storage.read(record.objectKey);
  if (!bytes)
    return fail('refAudioNotAccessible', 'ref_audio cannot be read: the stored bytes are gone (mock reset?)');
  return { bytes, fileName: record.fileName, uploadId: record.objectKey };
}
