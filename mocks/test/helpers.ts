import { type RequestOptions, request } from 'node:http';
import { setupServer } from 'msw/node';
import { http as http2 } from 'msw2';
import { setupServer as setupServer2 } from 'msw2/node';
import { expect } from 'vitest';
import { synthesizeToBytes, systemVoices } from '../../audio/index.js';
import type { OperationId } from '../../openapi/contract.js';
import { validateResponse } from '../../openapi/validate.js';
import { createMockService, type MockService, type MockServiceOptions } from '../core/service.js';
import { createHandlers } from '../msw.js';
import { startMockServer } from '../node/server.js';

/** The unpatched fetch, taken before MSW patches the global one. */
const realFetch = globalThis.fetch;

/** A way to reach the mock: the same service behind one of its three adapters. */
export interface Target {
  readonly name: 'in-process' | 'msw 3' | 'msw 2' | 'node';
  readonly service: MockService;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Every test service checks its own JSON answers against the OpenAPI description. */
export const testServiceOptions: MockServiceOptions = {
  validateResponses: true,
  logger: { error: () => {} },
};

export async function inProcessTarget(options: MockServiceOptions = {}): Promise<Target> {
  const service = createMockService({ ...testServiceOptions, ...options });
  return {
    name: 'in-process',
    service,
    request: (path, init) => service.fetch(new Request(`http://mock.test${path}`, init)),
    close: () => service.close(),
  };
}

/**
 * voice-kit/msw under msw/node's setupServer. MSW 3 is the devDependency `msw`; MSW 2 is installed as
 * `msw2` (an npm alias), so its handlers are built with its own `http` and run by its own setupServer.
 */
export async function mswTarget(options: MockServiceOptions = {}): Promise<Target> {
  const service = createMockService({ ...testServiceOptions, ...options });
  const baseUrl = 'http://voice.msw.test';
  const server = setupServer(...createHandlers({ baseUrl, service }));
  server.listen({ onUnhandledFrame: 'bypass' });
  return mswTargetOf('msw 3', service, baseUrl, () => server.close());
}

/** The same under MSW 2 (peer range `^2.15.0 || ^3.0.0`). */
export async function msw2Target(options: MockServiceOptions = {}): Promise<Target> {
  const service = createMockService({ ...testServiceOptions, ...options });
  const baseUrl = 'http://voice.msw2.test';
  const server = setupServer2(...createHandlers({ baseUrl, service, http: http2 }));
  server.listen({ onUnhandledRequest: 'bypass' });
  return mswTargetOf('msw 2', service, baseUrl, () => server.close());
}

function mswTargetOf(
  name: 'msw 3' | 'msw 2',
  service: MockService,
  baseUrl: string,
  stop: () => void,
): Target {
  return {
    name,
    service,
    request: (path, init) => globalThis.fetch(`${baseUrl}${path}`, init),
    close: async () => {
      stop();
      await service.close();
    },
  };
}

export async function nodeTarget(options: MockServiceOptions = {}): Promise<Target> {
  const server = await startMockServer({ port: 0, serviceOptions: { ...testServiceOptions, ...options } });
  return {
    name: 'node',
    service: server.service,
    request: (path, init) => realFetch(`${server.url}${path}`, init),
    close: () => server.close(),
  };
}

export const targetFactories = {
  'in-process': inProcessTarget,
  'msw 3': mswTarget,
  'msw 2': msw2Target,
  node: nodeTarget,
} as const;

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-API-Key': 'mock-key', ...headers },
  body: JSON.stringify(body),
});

export const withKey = (key: string | undefined, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string>),
    ...(key === undefined ? {} : { 'X-API-Key': key }),
  },
});

/** A multipart upload request of one file. */
export function uploadInit(
  bytes: Uint8Array,
  fileName: string,
  key = 'mock-key',
  scene = 'audio',
): RequestInit {
  const form = new FormData();
  form.set('scene', scene);
  form.set('file', new Blob([bytes.slice()]), fileName);
  return { method: 'POST', headers: { 'X-API-Key': key }, body: form };
}

let referenceCache: Uint8Array | undefined;
/** A ~7 s speech WAV from the kit's synthesizer, low-pitched voice: the analysis accepts it as a reference. */
export function referenceWav(): Uint8Array {
  referenceCache ??= synthesizeToBytes({
    text: 'This is my reference voice, recorded for cloning. It is long enough.',
    voice:
      systemVoices.find((v) => v.id === 'system_male_deep') ?? (systemVoices[0] as (typeof systemVoices)[0]),
    format: 'wav',
  });
  return referenceCache;
}

/** Reads an envelope answer, checks it against the OpenAPI description, and returns it. */
export async function envelope(response: Response, operationId?: OperationId) {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as {
    error_code: number;
    error_message: string;
    succeed: boolean;
    // biome-ignore lint/suspicious/noExplicitAny: tests read answer data by path, and the schema checks its shape
    data: any;
  };
  if (operationId) expect(validateResponse(operationId, response.status, body)).toEqual([]);
  expect(body.succeed).toBe(body.error_code === 0);
  if (!body.succeed) expect(body.data).toBeNull();
  return body;
}

/** Uploads the reference WAV and saves it as a voice; returns the object key. */
export async function createVoice(target: Target, voiceId: string, key = 'mock-key'): Promise<string> {
  const uploaded = await envelope(
    await target.request('/v1/files/upload', uploadInit(referenceWav(), 'ref.wav', key)),
  );
  const saved = await target.request(
    '/v1/voice/save',
    json({ voice_id: voiceId, ref_audio: uploaded.data.object_key }, { 'X-API-Key': key }),
  );
  expect(saved.status).toBe(200);
  return uploaded.data.object_key as string;
}

/** Byte equality without vitest's element-by-element diff (slow on audio-sized arrays). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

/**
 * A body-less request over node:http, for what fetch may not send (a Host of one's own, huge headers);
 * resolves with the status and the body as text.
 */
export function rawGet(url: string, options: RequestOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, options, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}
