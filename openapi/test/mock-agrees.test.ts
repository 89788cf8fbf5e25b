// The description says what the kit's mock sends, where users meet it: the upload 429's Retry-After
// and message, a malformed path parameter, the 405 example, and HEAD. Each is asked of the mock (in
// process, and HEAD over real HTTP, where "no body" means something) and compared with the YAML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.js';
import { type MockServer, startMockServer } from '../../mocks/node/server.js';
import { deref, document, operation } from './load-document.js';

const key = { 'X-API-Key': 'mock-key' };
const at = (path: string, init: RequestInit = {}) =>
  new Request(`http://127.0.0.1:4010${path}`, { ...init, headers: { ...key, ...init.headers } });

describe('the description and the mock agree', () => {
  it('uploadFile 429: Retry-After is declared, sent, and the message gives the same number', async () => {
    const declared = deref(operation('uploadFile').responses['429']);
    expect(Object.keys(declared.headers ?? {})).toContain('Retry-After');
    const example = declared.content['application/json'].examples.uploadRateLimited.value.error_message;

    const service = createMockService({ config: { uploadsPerHour: 1 } });
    const upload = () => {
      const form = new FormData();
      form.set('scene', 'audio');
      form.set('file', new Blob([new Uint8Array(64)]), 'a.wav');
      return service.fetch(at('/v1/files/upload', { method: 'POST', body: form }));
    };
    await upload();
    const refused = await upload();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error_code: number; error_message: string };
    const seconds = refused.headers.get('Retry-After');
    expect(seconds).toMatch(/^\d+$/);
    expect(body.error_message).toBe(
      `upload limit reached: 1 uploads per user per hour; retry in ${seconds} s`,
    );
    // The example has the mock's shape (with the default 30 an hour).
    expect(example).toMatch(/^upload limit reached: 30 uploads per user per hour; retry in \d+ s$/);
  });

  it('DELETE /v1/voice/%FF: deleteVoice answers 400/10001 in the envelope, after the key check', async () => {
    const service = createMockService();
    const res = await service.fetch(at('/v1/voice/%FF', { method: 'DELETE' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error_code: 10001,
      error_message: 'voice_id "%FF" is not valid percent-encoding',
      succeed: false,
      data: null,
    });
    expect(Object.keys(operation('deleteVoice').responses)).toContain('400');
    const anonymous = await service.fetch(
      new Request('http://127.0.0.1:4010/v1/voice/%FF', { method: 'DELETE' }),
    );
    expect(anonymous.status).toBe(401);
  });

  it('the 405 example is what the mock answers', async () => {
    const example = document['x-router-responses']?.['405'] ?? document.components.responses?.['405'];
    const documented = deref(example).content['application/json'].examples.methodNotAllowed.value;
    const res = await createMockService().fetch(at('/v1/voice/list', { method: 'PUT' }));
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual(documented);
  });

  describe('HEAD is refused as the description says: 405, Allow, no body', () => {
    let server: MockServer;
    beforeAll(async () => {
      server = await startMockServer({ port: 0 });
    });
    afterAll(() => server.close());

    it.each([['/v1/voice/list', 'DELETE, GET']])('HEAD %s → 405, Allow: %s', async (path, allow) => {
      expect(document.info.description).toMatch(
        /HEAD is no method of the interface: a HEAD\s+request answers HTTP 405/,
      );
      const res = await fetch(`${server.url}${path}`, { method: 'HEAD', headers: key });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });
  });
});
