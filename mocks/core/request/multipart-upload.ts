import {
  boundaryOf,
  extensionOf,
  isFormData,
  keptName,
  type PartHead,
} from '../../../common/multipart/head.js';
import { type PartSink, readMultipart } from '../../../common/multipart/reader.js';
import { MultipartError } from '../../../common/multipart/scanner.js';
import { upload } from '../../../openapi/contract.js';
import { type Failure, fail, quoted } from '../answer/envelope.js';
import type { CoreRequest } from '../context.js';
import { concat, type Storage, type StorageWriter } from '../platform/storage.js';
import { noteUpload, uploadHeadBytes } from '../state/exchange.js';
import { BodyStalled, drain } from './request-body.js';

/** A multipart upload form as received: the one file (stored) and the scene field. */
export interface ReceivedUpload {
  readonly fileName: string;
  readonly size: number;
  readonly scene: string | undefined;
}

interface FormProgress {
  fileName?: string;
  size: number;
  scene?: string;
  extraFiles: number;
  badExtension?: string;
  tooLarge: boolean;
  malformed?: string;
  /** The body stopped arriving (BodyStalled): 408, and nothing is kept. */
  stalled?: string;
  /** The storage refused the bytes (disk full, I/O error): 503, the service's fault, not the client's. */
  storageFailed?: string;
  writer?: StorageWriter;
  /** The names of the form's parts, in order (the first `keptFields`), for the request journal. */
  fields: string[];
  /** The first bytes of the file, for the journal to tell its container. */
  head?: Uint8Array;
}

/** How many part names the journal is told: a form of 10,000 parts must not be kept whole. */
const keptFields = 16;

/** Thrown by a sink to stop reading the form (past the size limit): the rest is drained, not parsed. */
const stopReading = new Error('stop reading the form');

/**
 * An error of the storage, not of the request body: the file sink wraps what its writer throws, so
 * that ENOSPC, EDQUOT, EIO or EROFS while storing answers 503 (§7.1 "storage temporarily
 * unavailable"), never a 400 blaming the client's multipart.
 */
class StorageFailed extends Error {}

/** What a storage error says, in a word when it has a code (no server path in an answer). */
const storageProblem = (error: unknown): string => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : String((error as Error)?.message ?? error);
};

/** Bytes kept of a text field; a longer value is cut (the scene is a short word). */
const maxFieldBytes = 1024;

const ignored: PartSink = { data() {} };

/** Where each part of an upload form goes: the one file into storage, the scene into the form. */
function partSink(form: FormProgress, storage: Storage, id: string, maxBytes: number) {
  return (head: PartHead): PartSink => {
    if (form.fields.length < keptFields) form.fields.push(keptName(head.name, 256));
    if (head.filename === undefined) {
      if (head.name !== upload.sceneField || form.scene !== undefined) return ignored;
      const bytes: Uint8Array[] = [];
      let kept = 0;
      return {
        data(chunk) {
          const room = maxFieldBytes - kept;
          if (room > 0) bytes.push(chunk.slice(0, room));
          kept += Math.min(room, chunk.byteLength);
        },
        end() {
          form.scene = new TextDecoder().decode(concat(bytes));
        },
      };
    }
    if (head.name !== upload.fileField || form.fileName !== undefined) {
      form.extraFiles += 1;
      return ignored;
    }
    form.fileName = head.filename;
    if (!(upload.allowedExtensions as readonly string[]).includes(extensionOf(head.filename))) {
      form.badExtension = extensionOf(head.filename);
      return ignored;
    }
    let writer: StorageWriter;
    try {
      writer = storage.create(id);
    } catch (error) {
      throw new StorageFailed(storageProblem(error));
    }
    form.writer = writer;
    return {
      async data(chunk) {
        form.head ??= chunk.slice(0, uploadHeadBytes);
        const room = maxBytes - form.size;
        form.size += chunk.byteLength;
        if (room < chunk.byteLength) {
          // Past the limit: what fits is not worth storing, the answer is 413 either way.
          form.tooLarge = true;
          throw stopReading;
        }
        try {
          await writer.write(chunk);
        } catch (error) {
          throw new StorageFailed(storageProblem(error));
        }
      },
    };
  };
}

/**
 * Streams a multipart upload (§4.1) into storage under `id`, without buffering the body: at most
 * `maxBytes` are ever stored, the rest of an oversized file is read and discarded so the client still
 * gets its answer. Returns what was received, or the failure to answer with (bytes already removed).
 *
 * @example
 * const received = await receiveUpload(request, storage, objectKey, limits.uploadMaxBytes.value);
 */
export async function receiveUpload(
  request: CoreRequest,
  storage: Storage,
  id: string,
  maxBytes: number,
): Promise<ReceivedUpload | Failure> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!isFormData(contentType) || !request.body) {
    await drain(request.body);
    return fail(
      'invalidUpload',
      `invalid multipart request: Content-Type must be multipart/form-data, got "${contentType}"`,
    );
  }
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) {
    await drain(request.body);
    return fail('invalidUpload', 'invalid multipart request: the Content-Type has no boundary');
  }
  const form: FormProgress = { size: 0, extraFiles: 0, tooLarge: false, fields: [] };
  try {
    await readMultipart(request.body, boundary, partSink(form, storage, id, maxBytes));
  } catch (error) {
    if (error instanceof MultipartError) form.malformed = error.message;
    else if (error instanceof BodyStalled) form.stalled = error.message;
    else if (error instanceof StorageFailed) form.storageFailed = error.message;
    else if (error !== stopReading)
      form.malformed = `request body could not be read: ${(error as Error).message}`;
    // Past the size limit or after a parse error the rest is read and thrown away, never stored.
    await drain(request.body);
  }
  noteUpload(request, {
    fields: form.fields,
    fileName: form.fileName ?? null,
    fileBytes: form.size,
    scene: form.scene ?? null,
    head: form.head ?? null,
  });
  const failure = judge(form, maxBytes) ?? (await stored(form));
  if (failure) await form.writer?.abort().catch(() => {});
  return failure ?? { fileName: form.fileName ?? '', size: form.size, scene: form.scene };
}

/** Closes the file of an accepted form: a storage that cannot finish it (fsync, rename) is a 503. */
async function stored(form: FormProgress): Promise<Failure | undefined> {
  try {
    await form.writer?.close();
    return undefined;
  } catch (error) {
    return storageFailure(storageProblem(error));
  }
}

const storageFailure = (problem: string): Failure =>
  fail(
    'storageUnavailable',
    `storage temporarily unavailable, retry later (the file could not be stored: ${problem})`,
  );

function judge(form: FormProgress, maxBytes: number): Failure | undefined {
  const scenes = upload.scenes as readonly string[];
  if (form.stalled) return fail('bodyStalled', form.stalled);
  if (form.storageFailed !== undefined) return storageFailure(form.storageFailed);
  if (form.malformed) return fail('invalidUpload', `invalid multipart request: ${form.malformed}`);
  if (form.extraFiles > 0)
    return fail('invalidUpload', 'invalid multipart request: send exactly one file, in field "file"');
  if (form.fileName === undefined)
    return fail('invalidUpload', 'invalid multipart request: form field "file" is missing');
  if (form.badExtension !== undefined) {
    const shown = form.badExtension ? quoted(`.${form.badExtension}`) : '(none)';
    return fail(
      'unsupportedExtension',
      `unsupported file extension ${shown}: allowed are .${upload.allowedExtensions.join(', .')}`,
    );
  }
  if (form.tooLarge)
    return fail('fileTooLarge', `file is larger than ${maxBytes} bytes (${maxBytes / 1_048_576} MiB)`);
  if (form.size === 0)
    return fail('invalidUpload', `invalid multipart request: file ${quoted(form.fileName ?? '')} is empty`);
  if (form.scene === undefined)
    return fail('invalidUpload', 'invalid multipart request: form field "scene" is missing');
  if (!scenes.includes(form.scene)) {
    return fail(
      'invalidUpload',
      `unsupported scene ${quoted(form.scene ?? '')}: supported is ${scenes.join(', ')}`,
    );
  }
  return undefined;
}
