// docs/typed-client.md shows docs/examples/typed-client.ts; this runs that file, as written, against the
// in-process mock (no network: the mock's fetch is openapi-fetch's fetch), so the page cannot rot.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.js';
import {
  deleteVoice,
  listVoiceIds,
  saveVoice,
  synthesize,
  synthesizeStream,
  uploadRecording,
  voiceClient,
} from '../examples/typed-client.js';

const service = createMockService();
const client = voiceClient('http://127.0.0.1:4010', 'mock-key', service.fetch);
const recording = new Blob([
  readFileSync(new URL('../../fixtures/files/speech-espeak.wav', import.meta.url)),
]);
const text = 'Hello from the typed client. [laugh] It reads like any other voice.';

describe('docs/examples/typed-client.ts against the in-process mock', () => {
  beforeEach(() => service.reset());

  it('uploads, saves, lists, synthesizes complete and streamed, and deletes', async () => {
    const objectKey = await uploadRecording(client, recording, 'speech-espeak.wav');
    expect(objectKey).toMatch(/^obj_/);
    await saveVoice(client, 'Docs_Example', objectKey);
    expect(await listVoiceIds(client)).toEqual(['docs_example']);

    const complete = await synthesize(client, text, 'docs_example');
    expect(complete.type).toBe('audio/wav');
    expect(new TextDecoder().decode(complete.bytes.subarray(0, 4))).toBe('RIFF');

    const chunks = await synthesizeStream(client, text, 'docs_example');
    expect(chunks.length).toBeGreaterThan(1);
    const streamed = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      streamed.set(chunk, at);
      at += chunk.length;
    }
    expect(streamed).toEqual(complete.bytes);

    await deleteVoice(client, 'docs_example');
    expect(await listVoiceIds(client)).toEqual([]);
  });

  it('turns a refusal into an Error with the status and the envelope', async () => {
    await expect(uploadRecording(client, recording, 'speech.flac')).rejects.toThrow(
      'upload: HTTP 400, error_code 20012',
    );
    await expect(saveVoice(client, 'x'.repeat(31), 'obj_unknown')).rejects.toThrow(
      'save: HTTP 400, error_code 10001',
    );
    const wrongKey = voiceClient('http://127.0.0.1:4010', 'no-such-key', service.fetch);
    await expect(listVoiceIds(wrongKey)).rejects.toThrow('list: HTTP 401, error_code 10003');
  });

  it('pages through more than one page of the list', async () => {
    const objectKey = await uploadRecording(client, recording, 'speech-espeak.wav');
    const ids = Array.from({ length: 23 }, (_, i) => `voice_${String(i).padStart(2, '0')}`);
    for (const id of ids) await saveVoice(client, id, objectKey);
    expect(await listVoiceIds(client)).toEqual(ids);
  });

  it('needs no cast: the example has no `as`, no non-null assertion and no any', () => {
    const source = readFileSync(new URL('../examples/typed-client.ts', import.meta.url), 'utf8');
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bas\s+(?!const\b)[A-Za-z{[(]/);
    expect(code).not.toMatch(/[\w)\]]!(?:\.|\[|\))/);
    expect(code).not.toMatch(/\bany\b/);
  });
});

describe('docs/typed-client.md', () => {
  it('shows only code that is in docs/examples/typed-client.ts, verbatim', () => {
    const page = readFileSync(new URL('../typed-client.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('../examples/typed-client.ts', import.meta.url), 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const block of blocks) expect(source, block).toContain(block);
  });
});
