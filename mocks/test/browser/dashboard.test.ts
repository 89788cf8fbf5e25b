/**
 * The dashboard at /__mock/ in Chromium against a real running mock with real traffic: what a person
 * sees (text, accessible button names), live, without a reload. The bundle is built first
 * (scripts/build-dashboard.mjs, as `npm run build` does); the screenshots go to reports/ (gitignored).
 *
 * Chromium is Debian's (`apt-get install chromium`; `.ci/run` installs it), driven by playwright-core.
 * Without one the test is skipped locally and fails in CI.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../node/server.js';
import { testServiceOptions } from '../helpers.js';
import { launchChromium, requiredChromium } from './chromium.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = here('../../../');
const executablePath = requiredChromium('the dashboard test');
const missing = executablePath === undefined;

const key = { 'X-API-Key': 'mock-key' };

async function upload(server: MockServer, file: string): Promise<string> {
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([await readFile(`${root}fixtures/files/${file}`)]), file);
  const answer = await fetch(`${server.url}/v1/files/upload`, { method: 'POST', headers: key, body: form });
  const body = (await answer.json()) as { data: { object_key: string } };
  return body.data.object_key;
}

async function saveVoice(server: MockServer, voiceId: string, objectKey: string): Promise<number> {
  const answer = await fetch(`${server.url}/v1/voice/save`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ voice_id: voiceId, ref_audio: objectKey }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe.skipIf(missing)('the dashboard in Chromium', () => {
  let server: MockServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const controlHeaders: Record<string, string>[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    server = await startMockServer({ port: 0, host: '127.0.0.1', serviceOptions: testServiceOptions });
    browser = await launchChromium(executablePath);
    page = await browser.newPage({ viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('request', async (request) => {
      if (request.method() === 'POST' && request.url().includes('/__mock/'))
        controlHeaders.push(await request.allHeaders());
    });
    const index = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/__mock/' && r.request().resourceType() === 'fetch',
    );
    await page.goto(`${server.url}/__mock/`);
    await index;
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 5000 });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the actions by their names, Populate too (the control index lists /__mock/populate)', async () => {
    for (const name of ['Reset', 'Snapshot', 'Restore', 'Advance clock', 'Reset quota', 'Populate'])
      await expect(page.getByRole('button', { name, exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('No custom voices yet.').isVisible()).resolves.toBe(true);
  });

  it('shows a voice saved through the API without a reload, with a reference player whose audio decodes', async () => {
    const objectKey = await upload(server, 'speech-espeak.wav');
    expect(await saveVoice(server, 'dash_voice', objectKey)).toBe(200);
    const card = page.getByRole('article', { name: 'Voice dash_voice' });
    await card.waitFor({ timeout: 3000 });
    await expect(card.textContent()).resolves.toContain(`from upload ${objectKey}`);
    await expect(card.textContent()).resolves.toContain('org-1 / production');
    // The upload's row says what the analysis found when the voice was saved.
    await page.getByRole('cell', { name: objectKey }).waitFor({ timeout: 3000 });
    await expect(page.getByText(/accepted · wav/).isVisible()).resolves.toBe(true);
    const decoded = await page.evaluate(async () => {
      const player = document.querySelector<HTMLAudioElement>('audio.reference');
      if (!player) return { error: 'no player' };
      const bytes = await (await fetch(player.src)).arrayBuffer();
      const audio = await new OfflineAudioContext(1, 1, 24_000).decodeAudioData(bytes);
      return { seconds: audio.duration };
    });
    expect(decoded).toEqual({ seconds: expect.any(Number) });
    expect((decoded as { seconds: number }).seconds).toBeGreaterThan(1);
  });

  it('logs a streamed answer with its chunks and timing, and a refusal with its error code', async () => {
    const stream = await fetch(`${server.url}/v1/text-to-speech/stream`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        generate_text: 'Hello! This is my own voice, streamed.',
        voice_id: 'dash_voice',
      }),
    });
    expect(stream.status).toBe(200);
    await stream.arrayBuffer();
    const refused = await fetch(`${server.url}/v1/voice/list`);
    expect(refused.status).toBe(401);
    await refused.arrayBuffer();

    const streamed = page.getByText(/streamed: first byte [\d.]+ m?s · \d+ chunks · [\d.]+ kB · [\d.]+ m?s/);
    await streamed.waitFor({ timeout: 4000 });
    const text = (await streamed.textContent()) ?? '';
    expect(Number(/· (\d+) chunks/.exec(text)?.[1])).toBeGreaterThan(1);
    const row = page.getByRole('row').filter({ hasText: 'POST /v1/text-to-speech/stream' });
    await expect(row.getByRole('cell', { name: '200', exact: true }).count()).resolves.toBe(1);

    const refusal = page.getByRole('row').filter({ hasText: 'GET /v1/voice/list' });
    await expect(refusal.getByRole('cell', { name: '401 · 10003' }).count()).resolves.toBe(1);
    await expect(page.getByText('error 10003: X-API-Key header is missing').isVisible()).resolves.toBe(true);
    expect(await page.getByText('m…y').count()).toBeGreaterThan(0);
    expect(await page.getByText('mock-key', { exact: true }).count()).toBe(0);

    // Its audio plays from the log: the request is sent again, and the player's audio decodes.
    await row.getByRole('button', { name: /^Play request \d+$/ }).click();
    const replayed = page.getByLabel(/^Audio of request \d+$/);
    await replayed.waitFor({ timeout: 5000 });
    const seconds = await replayed.evaluate(async (player: HTMLAudioElement) => {
      if (player.readyState < 1)
        await new Promise((resolve, reject) => {
          player.addEventListener('loadedmetadata', resolve, { once: true });
          player.addEventListener('error', () => reject(new Error('the audio does not decode')), {
            once: true,
          });
        });
      return player.duration;
    });
    expect(seconds).toBeGreaterThan(1);

    // The filter keeps only what matches.
    await page.getByLabel('Status').selectOption('4xx');
    await expect(
      page.getByRole('row').filter({ hasText: 'POST /v1/text-to-speech/stream' }).count(),
    ).resolves.toBe(0);
    await page.getByLabel('Status').selectOption('');
  });

  it('speaks a sentence with the voice in its speak box, and plays it', async () => {
    await page.getByRole('button', { name: 'Speak with dash_voice' }).click();
    await page
      .getByText(/^Spoke with dash_voice: [\d.]+ kB of audio\/wav, playing below\.$/)
      .waitFor({ timeout: 5000 });
    // The page's CSP lets media, not fetch, read its blob: URL: the player itself says how long it is.
    const spoken = await page.evaluate(async () => {
      const player = document.querySelector<HTMLAudioElement>('audio.spoken');
      if (!player?.src) return { error: 'no audio' };
      if (player.readyState < 1)
        await new Promise((resolve, reject) => {
          player.addEventListener('loadedmetadata', resolve, { once: true });
          player.addEventListener('error', () => reject(new Error('the audio does not decode')), {
            once: true,
          });
        });
      return { seconds: player.duration };
    });
    expect((spoken as { seconds: number }).seconds).toBeGreaterThan(0.5);
  });

  it('reads well at 1366×768, light and dark (screenshots in reports/)', async () => {
    await mkdir(`${root}reports`, { recursive: true });
    await page.screenshot({ path: `${root}reports/dashboard.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${root}reports/dashboard-dark.png` });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(21, 23, 27)');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('Reset asks first, then clears the mock and the page; the page posts with its own Origin', async () => {
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the mock?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(server.service.state.voices.all()).toHaveLength(1);

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(/^The mock is back to how it started/).waitFor({ timeout: 3000 });
    expect(server.service.state.voices.all()).toHaveLength(0);
    await page.getByText('No custom voices yet.').waitFor({ timeout: 3000 });
    await page.getByText('No requests yet.').waitFor({ timeout: 3000 });
    await expect(page.getByRole('article').count()).resolves.toBe(0);
    const reset = controlHeaders.find((headers) => headers.origin !== undefined);
    expect(reset?.origin).toBe(server.url);
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });

  it('shows Populate when the control index lists /__mock/populate, and posts {"voices", "seed"} to it', async () => {
    // This mock has no populate yet: the index and the operation are answered by the test instead.
    const other = await browser.newPage();
    try {
      const posted: unknown[] = [];
      await other.route(`${server.url}/__mock/`, async (route) => {
        if (route.request().resourceType() !== 'fetch') return route.continue();
        const index = { operations: [{ method: 'POST', path: '/__mock/populate', does: 'test' }] };
        await route.fulfill({ json: { error_code: 0, error_message: '', succeed: true, data: index } });
      });
      await other.route(`${server.url}/__mock/populate`, async (route) => {
        posted.push(route.request().postDataJSON());
        await route.fulfill({
          json: { error_code: 0, error_message: '', succeed: true, data: { created: 3, voices: [] } },
        });
      });
      await other.goto(`${server.url}/__mock/`);
      await other.getByRole('button', { name: 'Populate', exact: true }).click();
      const dialog = other.getByRole('dialog', { name: 'Populate the mock' });
      await dialog.getByLabel('Voices').fill('3');
      await dialog.getByLabel('Seed').fill('7');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await other.getByText('Added 3 populated voices.').waitFor({ timeout: 3000 });
      expect(posted).toEqual([{ voices: 3, seed: 7 }]);
    } finally {
      await other.close();
    }
  });

  it('asks for the control token on a mock that wants one, and takes it from the #token fragment', async () => {
    const guarded = await startMockServer({
      port: 0,
      host: '127.0.0.1',
      controlToken: 'dashboard-test-token',
    });
    const other = await browser.newPage();
    try {
      const sent: (string | undefined)[] = [];
      other.on('request', async (request) => {
        if (new URL(request.url()).pathname === '/__mock/state')
          sent.push((await request.allHeaders())['x-mock-control-token']);
      });
      await other.goto(`${guarded.url}/__mock/`);
      await other.getByLabel('Control token').first().waitFor({ timeout: 3000 });
      await other.getByText('needs the control token').waitFor();
      expect(sent.every((token) => token === undefined)).toBe(true);

      await other.goto(`${guarded.url}/__mock/#token=dashboard-test-token`);
      await other.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 3000 });
      expect(new URL(other.url()).hash).toBe('');
      expect(sent.at(-1)).toBe('dashboard-test-token');
      await expect(other.getByRole('form', { name: 'Control token' }).isVisible()).resolves.toBe(false);
    } finally {
      await other.close();
      await guarded.close();
    }
  });

  it('loads no reference recording until one is played (5,000 cards held up list answers, red-team D15)', async () => {
    const crowded = await startMockServer({ port: 0, host: '127.0.0.1', serviceOptions: testServiceOptions });
    const other = await browser.newPage();
    try {
      const populated = await fetch(`${crowded.url}/__mock/populate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voices: 40, seed: 3 }),
      });
      expect(populated.status).toBe(200);
      const audio: string[] = [];
      other.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/__mock/voice-audio/')) audio.push(request.url());
      });
      await other.goto(`${crowded.url}/__mock/`);
      await other.locator('audio.reference').nth(39).waitFor({ state: 'attached', timeout: 5000 });
      // Two polls: a player with preload="metadata" would have asked for its recording by now.
      await other.waitForResponse((r) => new URL(r.url()).pathname === '/__mock/state', { timeout: 3000 });
      await other.waitForTimeout(1500);
      expect(audio).toEqual([]);
      const preload = await other.locator('audio.reference').first().getAttribute('preload');
      expect(preload).toBe('none');
    } finally {
      await other.close();
      await crowded.close();
    }
  });
});
