/**
 * The example of docs/typed-client.md: a client of the voice service typed by voice-kit's OpenAPI
 * description, with openapi-fetch. Every request and answer below is checked by TypeScript against
 * `paths` from `voice-kit/types`, with no cast. docs/test/typed-client.test.ts type-checks this file
 * and runs it against the in-process mock. Run it against `npm start` with
 * `npx tsx docs/examples/typed-client.ts`.
 */

import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import type { paths } from 'voice-kit/types';

/** A client of one deployment. `fetch` is optional: pass another one (a mock's, MSW's) in tests. */
export function voiceClient(
  baseUrl: string,
  apiKey: string,
  fetch?: (request: Request) => Promise<Response>,
) {
  return createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey }, ...(fetch ? { fetch } : {}) });
}
export type VoiceClient = ReturnType<typeof voiceClient>;

/** A refusal as an Error: the HTTP status and the envelope's error_code and error_message. */
function refused(what: string, status: number, error: { error_code: number; error_message: string }) {
  return new Error(`${what}: HTTP ${status}, error_code ${error.error_code}: ${error.error_message}`);
}

/** Multipart: upload a recording, get its object key. `file` is typed `Blob`, so FormData takes a name. */
export async function uploadRecording(client: VoiceClient, recording: Blob, fileName: string) {
  const { data, error, response } = await client.POST('/v1/files/upload', {
    body: { scene: 'audio', file: recording },
    bodySerializer(body) {
      const form = new FormData();
      form.set('scene', body.scene);
      form.set('file', body.file, fileName);
      return form; // openapi-fetch then lets fetch write the multipart Content-Type
    },
  });
  if (error) throw refused('upload', response.status, error);
  return data.data.object_key;
}

/** JSON: save a voice from an uploaded recording. */
export async function saveVoice(client: VoiceClient, voiceId: string, objectKey: string) {
  const { error, response } = await client.POST('/v1/voice/save', {
    body: { voice_id: voiceId, ref_audio: objectKey },
  });
  if (error) throw refused('save', response.status, error);
}

/** JSON: the IDs of every custom voice, page by page. */
export async function listVoiceIds(client: VoiceClient) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await client.GET('/v1/voice/list', {
      params: { query: { page_size: 20, ...(cursor ? { voice_id: cursor } : {}) } },
    });
    if (error) throw refused('list', response.status, error);
    ids.push(...data.data.list.map((voice) => voice.voice_id));
    cursor = data.data.has_more ? (data.data.next_voice_id ?? undefined) : undefined;
  } while (cursor);
  return ids;
}

/** Binary: the complete audio of a text, as bytes, with its Content-Type. */
export async function synthesize(client: VoiceClient, text: string, voiceId: string) {
  const { data, error, response } = await client.POST('/v1/text-to-speech', {
    body: { generate_text: text, voice_id: voiceId, audio_format: 'wav' },
    parseAs: 'arrayBuffer',
  });
  if (error) throw refused('synthesis', response.status, error);
  return { type: response.headers.get('Content-Type'), bytes: new Uint8Array(data) };
}

/** Streamed: the audio of a text chunk by chunk, as it is made. */
export async function synthesizeStream(client: VoiceClient, text: string, voiceId: string) {
  const { data, error, response } = await client.POST('/v1/text-to-speech/stream', {
    body: { generate_text: text, voice_id: voiceId, audio_format: 'wav' },
    parseAs: 'stream',
  });
  if (error) throw refused('stream', response.status, error);
  const chunks: Uint8Array[] = [];
  if (!data) return chunks;
  const reader = data.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return chunks;
}

/** JSON with a path parameter: delete a voice by the ID the service returned. */
export async function deleteVoice(client: VoiceClient, voiceId: string) {
  const { error, response } = await client.DELETE('/v1/voice/{voice_id}', {
    params: { path: { voice_id: voiceId } },
  });
  if (error) throw refused('delete', response.status, error);
}

/** The whole flow: upload, save, list, complete and streamed synthesis, delete. */
export async function tour(client: VoiceClient, recording: Blob) {
  const objectKey = await uploadRecording(client, recording, 'speech-espeak.wav');
  await saveVoice(client, 'my_voice', objectKey);
  const voices = await listVoiceIds(client);
  const complete = await synthesize(client, 'Hello! [laugh] This is my own voice.', 'my_voice');
  const chunks = await synthesizeStream(client, 'Hello! [laugh] This is my own voice.', 'my_voice');
  await deleteVoice(client, 'my_voice');
  return { objectKey, voices, complete: complete.bytes.length, streamed: chunks.length };
}

// Run as a script: the tour against the mock of `npm start`.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const client = voiceClient('http://127.0.0.1:4010', 'mock-key');
  const recording = new Blob([await readFile('fixtures/files/speech-espeak.wav')]);
  console.log(await tour(client, recording));
}
