// Prism is the zero-code fallback mock (`npm run mock:prism`): it answers from the document's
// examples, so this checks that the examples and the Prefer header give what a client expects.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeader, errors } from '../contract.js';
import { document, jsonExamples } from './load-document.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let prism: ChildProcess | undefined;
let base = '';
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitUntilAnswering(url: string, attempts: number): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (prism?.exitCode !== null) throw new Error(`prism exited early:\n${output}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`prism did not answer:\n${output}`);
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const args = ['mock', '--host', '127.0.0.1', '--port', String(port), 'openapi/voice-service.yaml'];
  // detached: Prism may start workers; killing the process group stops them all.
  prism = spawn('node_modules/.bin/prism', args, { cwd: root, detached: true, stdio: 'pipe' });
  prism.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  prism.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await waitUntilAnswering(`${base}/v1/voice/list`, 100);
});

afterAll(() => {
  if (prism?.pid !== undefined && prism.exitCode === null) process.kill(-prism.pid, 'SIGTERM');
});

const listExamples = jsonExamples(document.paths['/v1/voice/list'].get.responses['200']);

describe('Prism mock of voice-service.yaml', () => {
  it('answers GET /v1/voice/list with the first documented example', async () => {
    const res = await fetch(`${base}/v1/voice/list`, { headers: { [apiKeyHeader]: 'any-key' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual(listExamples.firstPage);
    expect(body.data.list.length).toBeGreaterThan(1);
  });

  it('answers an out-of-range page_size with the first documented 400 example', async () => {
    const res = await fetch(`${base}/v1/voice/list?page_size=21`, { headers: { [apiKeyHeader]: 'any-key' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: errors.pageSizeOutOfRange.code, succeed: false });
  });

  it('answers 401 with the documented envelope when the key is missing', async () => {
    const res = await fetch(`${base}/v1/voice/list`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: errors.missingApiKey.code, succeed: false });
  });

  it.each([
    ['code=401', 401, errors.missingApiKey],
    ['code=500', 500, errors.unexpected],
    ['code=400, example=invalidCursor', 400, errors.invalidCursor],
  ])('Prefer: %s selects that error example', async (prefer, status, entry) => {
    const headers = { [apiKeyHeader]: 'any-key', Prefer: prefer };
    const res = await fetch(`${base}/v1/voice/list`, { headers });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({
      error_code: entry.code,
      error_message: entry.message,
      succeed: false,
      data: null,
    });
  });

  it('Prefer: example=lastPage selects a named success example', async () => {
    const headers = { [apiKeyHeader]: 'any-key', Prefer: 'example=lastPage' };
    const res = await fetch(`${base}/v1/voice/list`, { headers });
    expect(await res.json()).toEqual(listExamples.lastPage);
  });
});
