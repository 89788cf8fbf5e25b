import { limits } from '../../openapi/contract.js';
import type { ServiceDeps } from './context.js';
import { type Failure, fail } from './envelope.js';
import { readAtMost } from './request-body.js';
import type { Caller } from './state/tenancy.js';
import { concat } from './storage.js';

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
 * environment, or an http(s) URL fetched with a timeout and a 20 MiB cap. Anything unreachable is
 * refAudioNotAccessible (the `ref-audio-not-accessible` decision); an upload above 20 MiB is
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
  if (isUrl(ref)) return fetchReference(deps, ref);
  // An object key never has a scheme: ftp://, file:// or s3:// is a URL of a kind the spec does not take.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) {
    return fail(
      'refAudioNotAccessible',
      `ref_audio must be the object_key of an upload or an http(s) URL, got ${JSON.stringify(ref)}`,
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

async function fetchReference(deps: ServiceDeps, url: string): Promise<ReferenceAudio | Failure> {
  const max = limits.referenceMaxBytes.value;
  const timeoutMs = deps.config.reference.fetchTimeoutMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const notAccessible = (why: string) =>
    fail('refAudioNotAccessible', `ref_audio URL cannot be fetched: ${why}`);
  try {
    const response = await deps.fetch(url, { signal: abort.signal, redirect: 'follow' });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return notAccessible(`it answered HTTP ${response.status}`);
    }
    const reader = response.body.getReader();
    const read = await readAtMost(reader, max);
    if (!read) {
      await reader.cancel();
      // The size rule of §4.2 holds whatever the source: a URL over 20 MiB is 20010, like an upload.
      return fail(
        'refAudioTooLarge',
        `reference audio at ref_audio URL is larger than ${max} bytes (20 MiB)`,
      );
    }
    const bytes = concat(read.parts);
    const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return { bytes, fileName, uploadId: undefined };
  } catch (error) {
    return notAccessible(
      abort.signal.aborted ? String(abort.signal.reason?.message) : (error as Error).message,
    );
  } finally {
    clearTimeout(timer);
  }
}
