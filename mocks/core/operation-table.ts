import type { OperationId } from '../../openapi/contract.js';
import type { Operation } from './context.js';
import { voiceList } from './operations/voice-list.js';

/**
 * An operation whose module is imported on its first request, then called directly. Every module
 * costs the Node server startup time to resolve, read and compile (ESM, one file at a time), and the
 * first answer a client waits for is nearly always a list; uploads, voice saves (with the reference
 * audio checks), deletions and synthesis bring ~20 ms of modules the list never uses.
 */
function onFirstUse(load: () => Promise<Operation>): Operation {
  let operation: Operation | undefined;
  let loading: Promise<Operation> | undefined;
  return (context) => {
    if (operation) return operation(context);
    loading ??= load().then((loaded) => {
      operation = loaded;
      return loaded;
    });
    return loading.then((loaded) => loaded(context));
  };
}

/** The operation behind each operationId of the OpenAPI description. */
export const operations: Readonly<Record<OperationId, Operation>> = {
  uploadFile: onFirstUse(async () => (await import('./operations/file-upload.js')).fileUpload),
  saveVoice: onFirstUse(async () => (await import('./operations/voice-save.js')).voiceSave),
  listVoices: voiceList,
  deleteVoice: onFirstUse(async () => (await import('./operations/voice-delete.js')).voiceDelete),
  synthesizeSpeech: onFirstUse(async () => (await import('./operations/text-to-speech.js')).textToSpeech),
  streamSpeech: onFirstUse(async () => (await import('./operations/text-to-speech.js')).textToSpeechStream),
};
