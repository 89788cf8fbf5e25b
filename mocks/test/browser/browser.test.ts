/**
 * voice-kit/msw in a real browser: page.ts is bundled for the browser (which alone proves the core and
 * the handlers need no Node built-in), served on loopback with msw's worker script and a real
 * recording, and run in Chromium under msw/browser's setupWorker.
 *
 * Chromium is Debian's (`apt-get install chromium`; `.ci/run` installs it), driven by playwright-core:
 * no browser download is possible or needed. Set CHROMIUM_PATH to use another binary. Without one the
 * test is skipped locally and fails in CI.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requiredChromium } from './chromium.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const executablePath = requiredChromium('the browser test');
const missing = executablePath === undefined;

// biome-ignore lint/suspicious/noExplicitAny: the page reports plain JSON, asserted field by field below
type Seen = Record<string, any>;

describe.skipIf(missing)('voice-kit/msw under msw/browser in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let result: { ok: boolean; error?: string; seen: Seen };

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [here('./page.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const files: Record<string, [string, Uint8Array | string]> = {
      '/': [
        'text/html',
        '<!doctype html><title>voice-kit</title><script type="module" src="/page.js"></script>',
      ],
      '/page.js': ['text/javascript', bundle.outputFiles[0]?.contents ?? ''],
      '/mockServiceWorker.js': [
        'text/javascript',
        await readFile(here('../../../node_modules/msw/lib/mockServiceWorker.js')),
      ],
    };
    for (const [name, type] of [
      ['speech-espeak.wav', 'audio/wav'],
      ['speech.mp3', 'audio/mpeg'],
      ['speech-opus.webm', 'audio/webm'],
      ['speech.m4a', 'audio/mp4'],
    ] as const) {
      files[`/fixtures/${name}`] = [type, await readFile(here(`../../../fixtures/files/${name}`))];
    }
    server = createServer((req, res) => {
      const file = files[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file[0], 'Cache-Control': 'no-store' }).end(file[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium(executablePath);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'voiceKitResult' in globalThis, undefined, { timeout: 20_000 });
    result = await page.evaluate(
      () => (globalThis as unknown as { voiceKitResult: Promise<never> }).voiceKitResult,
    );
    if (errors.length > 0) result = { ...result, ok: false, error: errors.join('\n') };
    if (process.env.SHOW_SEEN) console.log(JSON.stringify(result, null, 1).slice(0, 3000));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const seen = (): Seen => {
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    return result.seen;
  };

  it('lists, uploads a real recording with FormData, saves a voice from it and lists it', () => {
    const { emptyList, upload, save, list } = seen();
    expect(emptyList).toMatchObject({
      status: 200,
      body: { succeed: true, data: { list: [], has_more: false } },
    });
    expect(upload.status).toBe(200);
    expect(upload.body.data).toMatchObject({
      file_name: 'my voice.wav',
      size: upload.recordingBytes,
      scene: 'audio',
    });
    expect(upload.body.data.object_key).toMatch(/^obj_/);
    expect(save).toMatchObject({ status: 200, body: { error_code: 0, succeed: true } });
    expect(list.body.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['browser_voice']);
    expect(list.body.data.list[0].voice_url).toMatch(/^https:\/\/voice\.test\/__mock\/voice-audio\//);
  });

  it("serves the voice's reference recording at its voice_url, byte for byte", () => {
    expect(seen().voiceUrl).toEqual({ status: 200, same: true });
  });

  it('analyses compressed references (MP3, WebM/Opus, M4A/AAC) in the page and saves voices from them', () => {
    const { compressed } = seen();
    for (const name of ['speech.mp3', 'speech-opus.webm', 'speech.m4a']) {
      expect(compressed[name].stored, name).toMatchObject({ status: 200, body: { error_code: 0 } });
      expect(compressed[name].saved, name).toMatchObject({
        status: 200,
        body: { error_code: 0, succeed: true },
      });
    }
  });

  it('synthesizes complete WAV and MP3 that Web Audio decodes', () => {
    const { complete, mp3 } = seen();
    expect(complete).toMatchObject({ status: 200, type: 'audio/wav' });
    expect(complete.decoded.seconds).toBeGreaterThan(1);
    expect(mp3).toMatchObject({ status: 200, type: 'audio/mpeg' });
    expect(mp3.decoded.seconds).toBeGreaterThan(0.5);
  });

  it('streams synthesis that a ReadableStream reader gets in several chunks', () => {
    const { stream } = seen();
    expect(stream).toMatchObject({ status: 200, type: 'audio/wav' });
    expect(stream.chunks.length).toBeGreaterThan(1);
    expect(stream.chunks.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(44);
  });

  it('refuses with the envelope, and service.reset() from the page empties the mock', () => {
    const { noKey, badPage, tooLongId, badForm, afterReset } = seen();
    const refusal = (status: number, code: number) => ({
      status,
      body: { error_code: code, succeed: false, data: null },
    });
    expect(noKey).toMatchObject(refusal(401, 10003));
    expect(badPage).toMatchObject(refusal(400, 10001));
    expect(tooLongId).toMatchObject(refusal(400, 10001));
    expect(badForm).toMatchObject(refusal(400, 10001));
    expect(afterReset.body.data.list).toEqual([]);
  });
});
