/**
 * A storage that cannot take the bytes (disk full, quota, I/O error, read-only) is the service's
 * fault: the upload answers 503/20002 "storage temporarily unavailable" (§7.1), never 400/10001
 * blaming the client's multipart, and the user's upload quota slot is given back. Tested with a
 * storage whose sink fails with an ENOSPC-coded error, in process and through the Node server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../entries/node.js';
import { errors } from '../../openapi/contract.js';
import { memoryStorage, type Storage } from '../core/platform/storage.js';
import { createMockService } from '../core/service.js';
import { referenceWav, testServiceOptions, uploadInit } from './helpers.js';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** Memory storage whose writers fail with ENOSPC at `when` (a write, or the close that fsyncs). */
function fullStorage(when: 'write' | 'close' | 'create'): Storage {
  const inner = memoryStorage();
  return {
    ...inner,
    create(id) {
      if (when === 'create') throw enospc();
      const writer = inner.create(id);
      return {
        write: async (chunk) => (when === 'write' ? Promise.reject(enospc()) : writer.write(chunk)),
        close: async () => (when === 'close' ? Promise.reject(enospc()) : writer.close()),
        abort: () => writer.abort(),
      };
    },
  };
}

const quotaLeft = async (fetcher: (path: string) => Promise<Response>) =>
  ((await (await fetcher('/__mock/state')).json()).data.quotas as { uploadsLeft: number }[])[0]?.uploadsLeft;

describe('a full disk while an upload is stored', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it.each(['write', 'close', 'create'] as const)(
    'answers 503/20002 when the %s fails, and keeps the quota slot',
    async (when) => {
      const service = createMockService({ ...testServiceOptions, storage: fullStorage(when) });
      closers.push(() => service.close());
      const fetcher = (path: string, init?: RequestInit) =>
        service.fetch(new Request(`http://mock.test${path}`, init));
      const before = await quotaLeft(fetcher);
      const answer = await fetcher('/v1/files/upload', uploadInit(referenceWav(), 'ref.wav'));
      const body = await answer.json();
      expect([answer.status, body.error_code]).toEqual([503, errors.storageUnavailable.code]);
      expect(body.error_message).toBe(
        'storage temporarily unavailable, retry later (the file could not be stored: ENOSPC)',
      );
      expect(await quotaLeft(fetcher)).toBe(before);
    },
  );

  it('through the Node server with an injected storage', async () => {
    const server = await startMockServer({
      port: 0,
      serviceOptions: { logger: { error: () => {} }, storage: fullStorage('write') },
    });
    closers.push(() => server.close());
    const fetcher = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
    const before = await quotaLeft(fetcher);
    const answer = await fetcher('/v1/files/upload', uploadInit(referenceWav(), 'ref.wav'));
    const body = await answer.json();
    expect([answer.status, body.error_code, body.succeed]).toEqual([503, 20002, false]);
    expect(await quotaLeft(fetcher)).toBe(before);
  });

  it('a body stream that breaks off is still the client’s 400/10001', async () => {
    const service = createMockService({ ...testServiceOptions, storage: memoryStorage() });
    closers.push(() => service.close());
    const head = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nabc';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.error(new Error('connection reset'));
      },
    });
    const answer = await service.fetch(
      new Request('http://mock.test/v1/files/upload', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'multipart/form-data; boundary=x' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
    const envelope = await answer.json();
    expect([answer.status, envelope.error_code]).toEqual([400, errors.invalidUpload.code]);
    expect(envelope.error_message).toMatch(/request body could not be read: connection reset/);
  });
});
