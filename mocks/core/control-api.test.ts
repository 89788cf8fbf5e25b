import { describe, expect, it } from 'vitest';
import { controlIndex } from './control-api.js';
import { createMockService } from './service.js';

const service = createMockService({ logger: { error: () => {} } });
const control = (method: string, path: string) =>
  service.fetch(new Request(`http://mock.test${path}`, { method }));

describe('GET /__mock/ (the control API index)', () => {
  it('answers the index instead of a 404 pointing at itself', async () => {
    const res = await control('GET', '/__mock/');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { succeed: boolean; data: { operations: typeof controlIndex } };
    expect(body.succeed).toBe(true);
    expect(body.data.operations).toEqual(controlIndex);
    expect(body.data.operations.map((op) => `${op.method} ${op.path}`)).toContain('POST /__mock/restore');
  });

  it.each(controlIndex.filter((op) => !op.path.includes('<')))(
    'lists $method $path, which exists',
    async ({ method, path }) => {
      const res = await control(method, path);
      expect([404, 405]).not.toContain(res.status);
    },
  );

  it('an unknown control path still says where to look', async () => {
    const res = await control('GET', '/__mock/nothing');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error_message: string }).error_message).toContain('see /__mock/');
  });
});
