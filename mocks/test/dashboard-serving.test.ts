/**
 * The dashboard as the Node server serves it, without a browser: which requests get the page, its
 * security headers, the guard's rules on it, and the stream timing the server measures for the
 * request log. (mocks/test/browser/dashboard.test.ts drives the page itself in Chromium.)
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../node/server.js';
import { rawGet } from './helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the dashboard on the Node server', () => {
  let server: MockServer;
  let guarded: MockServer;

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    server = await startMockServer({ port: 0 });
    guarded = await startMockServer({ port: 0, controlToken: 'serving-test-token' });
  });

  afterAll(async () => {
    await server?.close();
    await guarded?.close();
  });

  it.each(['/__mock/', '/__mock'])(
    'GET %s from a browser is the page, with strict security headers',
    async (path) => {
      const page = await fetch(`${server.url}${path}`, { headers: { Accept: browserAccept } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await page.text();
      expect(html).toContain('<script type="module" src="/__mock/dashboard/dashboard.js">');
      expect(html).not.toMatch(/<script>|https?:\/\//);
    },
  );

  it.each([undefined, '*/*', 'application/json', 'text/html;q=0.5, application/json'])(
    'GET /__mock/ with Accept %j is still the JSON index',
    async (accept) => {
      const index = await fetch(`${server.url}/__mock/`, accept ? { headers: { Accept: accept } } : {});
      expect(index.headers.get('content-type')).toBe('application/json');
      const body = (await index.json()) as { data: { operations: { path: string }[] } };
      expect(body.data.operations.map((op) => op.path)).toContain('/__mock/state');
    },
  );

  it('serves the script and style from the package, and nothing else under /__mock/dashboard/', async () => {
    const script = await fetch(`${server.url}/__mock/dashboard/dashboard.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
    expect((await script.text()).length).toBeGreaterThan(1000);
    const style = await fetch(`${server.url}/__mock/dashboard/dashboard.css`);
    expect([style.status, style.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    await style.arrayBuffer();
    // Sent as written (fetch would resolve the dots before sending): the server sees these very targets.
    for (const path of [
      '/__mock/dashboard/../../package.json',
      '/__mock/dashboard/..%2f..%2fpackage.json',
      '/__mock/dashboard/constructor',
      '/__mock/dashboard/__proto__',
    ]) {
      const other = await rawGet(server.url, { path });
      expect([path, other.status]).toEqual([path, 404]);
    }
    const unknown = await fetch(`${server.url}/__mock/dashboard/secrets.json`);
    expect(unknown.status).toBe(404);
    await unknown.arrayBuffer();
  });

  it('refuses the page to a foreign Origin and through a foreign Host, as the control API', async () => {
    const foreign = await fetch(`${server.url}/__mock/`, {
      headers: { Accept: browserAccept, Origin: 'http://evil.test' },
    });
    expect(foreign.status).toBe(403);
    await foreign.arrayBuffer();
    const state = await fetch(`${server.url}/__mock/state`, { headers: { Origin: 'http://evil.test' } });
    expect(state.status).toBe(403);
    await state.arrayBuffer();
    // The page's own requests carry its own origin, which is the mock's.
    const own = await fetch(`${server.url}/__mock/state`, { headers: { Origin: server.url } });
    expect(own.status).toBe(200);
    await own.arrayBuffer();
  });

  it('on a mock with a control token, the page loads without it, its data only with it', async () => {
    const page = await fetch(`${guarded.url}/__mock/`, { headers: { Accept: browserAccept } });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const without = await fetch(`${guarded.url}/__mock/state`);
    expect(without.status).toBe(401);
    await without.arrayBuffer();
    const withToken = await fetch(`${guarded.url}/__mock/state`, {
      headers: { 'X-Mock-Control-Token': 'serving-test-token', Origin: guarded.url },
    });
    expect(withToken.status).toBe(200);
    await withToken.arrayBuffer();
  });

  it('logs how a streamed answer went out: time to first byte, chunks, bytes and duration', async () => {
    await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    const answer = await fetch(`${server.url}/v1/text-to-speech/stream`, {
      method: 'POST',
      headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ generate_text: 'A sentence streamed in chunks, to be timed.' }),
    });
    const bytes = (await answer.arrayBuffer()).byteLength;
    // The log learns the timing when the body has ended, just after the client has it all.
    type Timing = { ttfbMs: number; chunks: number; bytes: number; durationMs: number; complete: boolean };
    let stream: Timing | null = null;
    for (let tries = 0; tries < 50 && !stream; tries++) {
      const log = (await (await fetch(`${server.url}/__mock/requests`)).json()) as {
        data: { stream: Timing | null }[];
      };
      stream = log.data.at(-1)?.stream ?? null;
      if (!stream) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(stream).toMatchObject({ bytes, complete: true });
    expect(stream?.chunks).toBeGreaterThan(1);
    expect(stream?.ttfbMs).toBeGreaterThan(0);
    expect(stream?.durationMs).toBeGreaterThanOrEqual(stream?.ttfbMs ?? Number.POSITIVE_INFINITY);
  });
});
