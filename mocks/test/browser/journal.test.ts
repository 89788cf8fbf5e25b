/**
 * The dashboard's request journal in Chromium, against a real running mock with real traffic (issue
 * 27): opening a row (click or keyboard) shows the request and the answer; answers forced by `Prefer`
 * and the mock's X-Mock-Warning are marked; each row has a contract verdict; Clear log empties the log
 * alone; the count and HAR endpoints answer, and the HAR is a button; populated voices say so, action
 * results read as sentences, paths wrap only between segments, many voices get a filter, and a long
 * log comes a page at a time. Same harness as dashboard.test.ts (Debian's chromium, playwright-core).
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
const executablePath = requiredChromium('the journal test');
const missing = executablePath === undefined;

const key = { 'X-API-Key': 'mock-key' };

describe.skipIf(missing)('the request journal in Chromium', () => {
  let server: MockServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const send = async (path: string, init: RequestInit = {}) => {
    const answer = await fetch(`${server.url}${path}`, { ...init, headers: { ...key, ...init.headers } });
    await answer.arrayBuffer();
    return answer;
  };
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const row = (text: string | RegExp) => page.getByRole('row').filter({ hasText: text }).first();

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    server = await startMockServer({ port: 0, host: '127.0.0.1', serviceOptions: testServiceOptions });
    browser = await launchChromium(executablePath);
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    const form = new FormData();
    form.set('scene', 'audio');
    const wav = await readFile(`${root}fixtures/files/speech-espeak.wav`);
    form.set('file', new Blob([wav]), 'speech-espeak.wav');
    const uploaded = await fetch(`${server.url}/v1/files/upload`, {
      method: 'POST',
      headers: key,
      body: form,
    });
    const objectKey = ((await uploaded.json()) as { data: { object_key: string } }).data.object_key;
    await send('/v1/voice/save', json({ voice_id: 'my_voice', ref_audio: objectKey }));
    await send('/v1/voice/list?page_size=2');
    await send('/v1/files/upload', { method: 'POST', headers: { Prefer: 'code=503' } });
    await send('/v1/voice/list', { headers: { Prefer: 'latency=300' } });
    await send('/v1/voice/My_Voice', { method: 'DELETE' });
    await send('/v1/text-to-speech', json({ generate_text: 'Hello from the journal.', audio_format: 'wav' }));
    await page.goto(`${server.url}/__mock/`);
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 5000 });
    await row('DELETE /v1/voice/My_Voice').waitFor({ timeout: 5000 });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a row with a click: the URL with its query, headers with the key masked, the JSON answer', async () => {
    const list = row('GET /v1/voice/list?page_size=2');
    await list.getByRole('cell').nth(2).click();
    const detail = page.getByRole('region', { name: /^Request \d+ in full$/ });
    await detail.waitFor({ timeout: 3000 });
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain(`GET ${server.url}/v1/voice/list?page_size=2`);
    expect(text).toContain('x-api-keym…y');
    expect(text).not.toContain('mock-key');
    expect(text).toContain('"succeed": true');
    expect(text).toContain('Contract: kept (status, headers and the whole body checked).');
    await expect(list.getByText('contract ✓').count()).resolves.toBe(1);
    await list.getByRole('button', { name: /^Close request \d+$/ }).click();
    await expect(detail.count()).resolves.toBe(0);
  });

  it('opens a row from the keyboard: an upload shows its form (fields, file, size, container)', async () => {
    const upload = page.getByRole('row').filter({ hasText: 'POST /v1/files/upload' }).last();
    const opener = upload.getByRole('button', { name: /^Open request \d+$/ });
    await opener.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: /^Request \d+ in full$/ });
    await detail
      .getByText(
        /^Upload form: fields scene, file · file speech-espeak\.wav · [\d.]+ kB · container wav · scene audio$/,
      )
      .waitFor({ timeout: 3000 });
    await expect(
      upload.getByRole('button', { name: /^Close request \d+$/ }).getAttribute('aria-expanded'),
    ).resolves.toBe('true');
    await page.keyboard.press('Enter');
    await expect(detail.count()).resolves.toBe(0);
  });

  it('marks answers forced by Prefer in the row and the detail, and shows X-Mock-Warning', async () => {
    const forced = row(/POST \/v1\/files\/upload.*forced: code=503/);
    await expect(forced.getByRole('cell', { name: '503 · 20002' }).count()).resolves.toBe(1);
    await forced.getByRole('button', { name: /^Open request \d+$/ }).click();
    await page
      .getByText(/^Forced by Prefer: code=503\. This answer was asked for by the request/)
      .waitFor({ timeout: 3000 });
    await expect(row(/GET \/v1\/voice\/list.*forced: latency=300/).count()).resolves.toBe(1);

    const warned = row('DELETE /v1/voice/My_Voice');
    await expect(warned.getByText('mock warning').count()).resolves.toBe(1);
    await warned.getByRole('button', { name: /^Open request \d+$/ }).click();
    await page
      .getByText(/^Mock warning: no voice "My_Voice"; voice "my_voice" exists/)
      .waitFor({ timeout: 3000 });
  });

  it('describes an audio answer (format, duration, bytes) and plays it from the detail', async () => {
    const speech = row('POST /v1/text-to-speech');
    await speech.getByRole('button', { name: /^Open request \d+$/ }).click();
    const audio = page.getByText(/^Audio: wav · [\d.]+ s · [\d.]+ kB$/);
    await audio.waitFor({ timeout: 3000 });
    const seconds = Number(/wav · ([\d.]+) s/.exec((await audio.textContent()) ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(0.5);
    await mkdir(`${root}reports`, { recursive: true });
    await page.screenshot({ path: `${root}reports/dashboard-journal.png` });
    await speech.getByRole('button', { name: /^Play request \d+$/ }).click();
    await page
      .getByText(/^Sent request \d+ again: [\d.]+ kB of audio\/wav, playing in its row\.$/)
      .waitFor({ timeout: 5000 });
    await page.getByLabel(/^Audio of request \d+$/).waitFor({ timeout: 3000 });
  });

  it('a stream opened while it plays gets its size and duration once its body has ended', async () => {
    // Real-time pace: the body takes seconds, so the row is opened before the body has ended.
    const streaming = send(
      '/v1/text-to-speech/stream',
      json(
        { generate_text: 'This sentence is streamed at the pace of speech.' },
        { Prefer: 'pace=realtime' },
      ),
    );
    const stream = row(/POST \/v1\/text-to-speech\/stream.*forced: pace=realtime/);
    await stream.waitFor({ timeout: 5000 });
    await stream.getByRole('button', { name: /^Open request \d+$/ }).click();
    const detail = page.getByRole('region', { name: /^Request \d+ in full$/ }).filter({ hasText: '/stream' });
    await detail.getByText(/^Audio: wav · \? s · size unknown$/).waitFor({ timeout: 3000 });
    expect((await streaming).status).toBe(200);
    await detail.getByText(/^Audio: wav · [\d.]+ s · [\d.]+ kB$/).waitFor({ timeout: 5000 });
    await stream.getByRole('button', { name: /^Close request \d+$/ }).click();
  });

  it('lays paths out to wrap only between segments', async () => {
    const cell = row('GET /v1/voice/list?page_size=2').getByRole('cell').nth(2);
    const layout = await cell.evaluate((td) => ({
      breaks: td.querySelectorAll('wbr').length,
      wordBreak: getComputedStyle(td).wordBreak,
      segments: [...td.querySelectorAll('.segment')].map((s) => getComputedStyle(s).whiteSpace),
    }));
    expect(layout.wordBreak).toBe('normal');
    expect(layout.breaks).toBeGreaterThanOrEqual(4);
    expect(new Set(layout.segments)).toEqual(new Set(['nowrap']));
    // A segment with a hyphen stays on one line even in a narrow cell.
    // Read in one go: a poll may draw the rows again between a locator and its evaluate.
    const lines = await page.evaluate(() =>
      [...document.querySelectorAll('td.path .segment')]
        .filter((s) => s.textContent === 'text-to-speech')
        .map((s) => s.getClientRects().length),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set([1]));
  });

  it('answers the count and HAR endpoints, and downloads the HAR from its button', async () => {
    const counted = await page.evaluate(async () => {
      const answer = await fetch('/__mock/requests/count?operation=listVoices&status=200');
      return ((await answer.json()) as { data: unknown }).data;
    });
    expect(counted).toEqual({ count: 2 });
    // A refusal from Node, not the page: Chromium reports every 4xx fetch as a console error.
    const refused = await fetch(`${server.url}/__mock/requests/count?operation=nope`);
    expect([refused.status, ((await refused.json()) as { error_code: number }).error_code]).toEqual([
      400, 10001,
    ]);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download HAR' }).click();
    const file = await (await download).path();
    const har = JSON.parse(await readFile(file, 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThanOrEqual(7);
    expect(JSON.stringify(har)).not.toContain('mock-key');
    await page
      .getByText(/^Saved \d+ requests as voice-kit-requests-.*\.har \(HAR 1\.2, [\d.]+ kB\)\.$/)
      .waitFor();
  });

  it('Clear log empties the log and nothing else, and says so in a sentence', async () => {
    await page.getByRole('button', { name: 'Clear log' }).click();
    await page
      .getByText(/^Cleared \d+ requests from the log; voices, uploads, quotas and the clock are unchanged\.$/)
      .waitFor({ timeout: 3000 });
    await page.getByText('No requests yet.').waitFor({ timeout: 3000 });
    await expect(page.getByRole('article', { name: 'Voice my_voice' }).count()).resolves.toBe(1);
    expect(server.service.state.uploads.all()).toHaveLength(1);
  });

  it('labels populated voices, reads action results as sentences, and filters many voices', async () => {
    // One voice needs no filter.
    await expect(page.getByLabel('Filter voices').isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Populate', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Populate the mock' });
    await dialog.getByLabel('Voices').fill('7');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Added 7 populated voices.').waitFor({ timeout: 10_000 });
    const populated = page.getByRole('article').filter({ hasText: '· populated ·' });
    await populated.nth(6).waitFor({ timeout: 3000 });
    await expect(populated.count()).resolves.toBe(7);
    await expect(page.getByText('from a URL').count()).resolves.toBe(0);

    const filter = page.getByLabel('Filter voices');
    await filter.fill('my_voi');
    await expect(page.getByRole('article').count()).resolves.toBe(1);
    await filter.fill('');

    await page.getByRole('button', { name: 'Advance clock' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByText(/^Moved the clock forward 3600 s: it now reads 20\d\d-\d\d-\d\d \d\d:\d\d:\d\dZ\.$/)
      .waitFor({ timeout: 3000 });
    await page.getByRole('button', { name: 'Reset quota' }).click();
    await page.getByText('Every user has a fresh upload window.').waitFor({ timeout: 3000 });
    const result = (await page.locator('output.result').textContent()) ?? '';
    expect(result).not.toMatch(/— null|\{"/);
  });

  it('draws a long log a page of 100 rows at a time', async () => {
    for (let i = 0; i < 150; i++) await send(`/v1/voice/list?page_size=1&n=${i}`);
    await page.getByText(/^rows 1–100 of 1\d\d$/).waitFor({ timeout: 5000 });
    await expect(page.locator('tbody tr[data-seq]').count()).resolves.toBeLessThanOrEqual(100);
    await page.getByRole('button', { name: 'Older', exact: true }).click();
    await page.getByText(/^rows 101–1\d\d of 1\d\d$/).waitFor({ timeout: 3000 });
    expect(pageErrors, pageErrors.join('\n')).toEqual([]);
  });
});
