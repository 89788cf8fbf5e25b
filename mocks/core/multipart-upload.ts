import type { Readable } from 'node:stream';
import type busboy from 'busboy';
import { upload } from '../../openapi/contract.js';
import type { CoreRequest } from './context.js';
import { type Failure, fail } from './envelope.js';
import { drain, mediaType } from './request-body.js';
import type { Storage, StorageWriter } from './storage.js';

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
  writes: Promise<void>;
  writer?: StorageWriter;
}

/** The extension of a file name, lowercased, without the dot; '' when there is none. */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 || dot === fileName.length - 1 ? '' : fileName.slice(dot + 1).toLowerCase();
};

function onFile(form: FormProgress, storage: Storage, id: string, maxBytes: number) {
  return (field: string, stream: Readable, info: { filename: string }) => {
    stream.on('error', () => {}); // a truncated form errors here too; the form-level error reports it
    if (field !== upload.fileField || form.fileName !== undefined) {
      form.extraFiles += 1;
      stream.resume();
      return;
    }
    form.fileName = info.filename;
    const extension = extensionOf(info.filename);
    if (!(upload.allowedExtensions as readonly string[]).includes(extension)) {
      form.badExtension = extension;
      stream.resume();
      return;
    }
    const writer = storage.create(id);
    form.writer = writer;
    stream.on('data', (chunk: Uint8Array) => {
      const room = maxBytes - form.size;
      form.size += chunk.byteLength;
      if (room <= 0) return;
      stream.pause();
      // Writes are chained so they land in order; the stream resumes when storage has taken the chunk.
      form.writes = form.writes
        .then(() => writer.write(room >= chunk.byteLength ? chunk : chunk.subarray(0, room)))
        .finally(() => stream.resume());
    });
    stream.on('limit', () => {
      form.tooLarge = true;
    });
  };
}

async function feed(body: ReadableStream<Uint8Array>, parser: busboy.Busboy, form: FormProgress) {
  let stopped = false;
  const closed = new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', (error: Error) => {
      // Destroying the parser on purpose (past the size limit) makes it complain; that is no client error.
      if (!stopped) form.malformed ??= error.message;
      resolve();
    });
  });
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Past the size limit or after a parse error the rest is read and thrown away, never stored.
      if (form.tooLarge || form.malformed) continue;
      if (!parser.write(value)) await new Promise((resolve) => parser.once('drain', resolve));
    }
  } catch (error) {
    form.malformed ??= `request body could not be read: ${(error as Error).message}`;
  }
  if (form.tooLarge || form.malformed) {
    stopped = true;
    parser.destroy();
  } else {
    parser.end();
    await closed;
  }
}

// busboy (and the node:stream it pulls in) is imported on the first upload, not when the mock starts.
let busboyModule: Promise<typeof busboy> | undefined;
const loadBusboy = () => {
  // Node hands a CommonJS module over as `default`; the types of busboy (`export =`) do not say so.
  busboyModule ??= import('busboy').then(
    (module) => (module as { default?: typeof busboy }).default ?? (module as unknown as typeof busboy),
  );
  return busboyModule;
};

/**
 * Streams a multipart upload (§4.1) into storage under `id`, without buffering the body: at most
 * `maxBytes` are ever stored, the rest of an oversized file is read and discarded so the client still
 * gets its answer. Returns what was received, or the failure to answer with (bytes already removed).
 *
 * Uses busboy, which needs node:stream internally: the one place the core leans on Node.
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
  if (mediaType(contentType) !== 'multipart/form-data' || !request.body) {
    await drain(request.body);
    return fail(
      'invalidUpload',
      `invalid multipart request: Content-Type must be multipart/form-data, got "${contentType}"`,
    );
  }
  const form: FormProgress = { size: 0, extraFiles: 0, tooLarge: false, writes: Promise.resolve() };
  let parser: busboy.Busboy;
  try {
    const busboy = await loadBusboy();
    // fileSize is one more than allowed because busboy flags a file that exactly reaches its limit.
    // defParamCharset: curl, browsers and undici send a raw UTF-8 filename="…", which busboy would
    // read as latin1 (grüße → grÃ¼Ãe); §2.2 returns the original name. filename*= (RFC 5987) names
    // its own charset and is unaffected.
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes + 1, fieldSize: 1024 },
    });
  } catch (error) {
    await drain(request.body);
    return fail('invalidUpload', `invalid multipart request: ${(error as Error).message}`);
  }
  parser.on('file', onFile(form, storage, id, maxBytes));
  parser.on('field', (name: string, value: string) => {
    if (name === upload.sceneField) form.scene ??= value;
  });
  await feed(request.body, parser, form);
  await form.writes.catch(() => {});
  const failure = judge(form, maxBytes);
  if (failure) await form.writer?.abort();
  else await form.writer?.close();
  return failure ?? { fileName: form.fileName ?? '', size: form.size, scene: form.scene };
}

function judge(form: FormProgress, maxBytes: number): Failure | undefined {
  const scenes = upload.scenes as readonly string[];
  if (form.malformed) return fail('invalidUpload', `invalid multipart request: ${form.malformed}`);
  if (form.extraFiles > 0)
    return fail('invalidUpload', 'invalid multipart request: send exactly one file, in field "file"');
  if (form.fileName === undefined)
    return fail('invalidUpload', 'invalid multipart request: form field "file" is missing');
  if (form.badExtension !== undefined) {
    const shown = form.badExtension ? `".${form.badExtension}"` : '(none)';
    return fail(
      'unsupportedExtension',
      `unsupported file extension ${shown}: allowed are .${upload.allowedExtensions.join(', .')}`,
    );
  }
  if (form.tooLarge)
    return fail('fileTooLarge', `file is larger than ${maxBytes} bytes (${maxBytes / 1_048_576} MiB)`);
  if (form.size === 0)
    return fail('invalidUpload', `invalid multipart request: file "${form.fileName}" is empty`);
  if (form.scene === undefined)
    return fail('invalidUpload', 'invalid multipart request: form field "scene" is missing');
  if (!scenes.includes(form.scene)) {
    return fail('invalidUpload', `unsupported scene "${form.scene}": supported is ${scenes.join(', ')}`);
  }
  return undefined;
}
