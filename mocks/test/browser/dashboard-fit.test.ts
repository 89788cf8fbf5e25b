/**
 * The dashboard fits the sizes docs/dashboard.md claims (1366×768 and up), in Chromium, with a busy
 * journal (long paths and queries, many voices): the document never scrolls sideways, no table of it
 * is wider than its panel, and every button and cell shows all of itself. Its first paint shows the
 * mock's state, not an empty frame ("connecting…"). Screenshots go to reports/ (gitignored).
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../node/server.js';
import { testServiceOptions } from '../helpers.js';
import { launchChromium, requiredChromium } from './chromium.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const executablePath = requiredChromium('the dashboard fit test');
const key = { 'X-API-Key': 'mock-key' };

/** Traffic a busy session leaves in the journal: long ids, long queries, a stream, refusals. */
async function busyJournal(server: MockServer): Promise<void> {
  const send = async (path: string, init: RequestInit = {}) =>
    (await fetch(`${server.url}${path}`, { ...init, headers: { ...key, ...init.headers } })).arrayBuffer();
  const populate = await fetch(`${server.url}/__mock/populate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voices: 40, seed: 3 }),
  });
  expect(populate.status).toBe(200);
  for (let i = 0; i < 12; i++) {
    await send(
      `/v1/voice/${'a_very_long_voice_identifier_'.repeat(3)}${i}?query_parameter=${'x'.repeat(90)}&other=${'y'.repeat(50)}`,
      { method: 'DELETE' },
    );
    await send(`/v1/voice/list?page_size=20&cursor=${'c'.repeat(70)}`);
  }
  await send('/v1/voice/list', { headers: { 'X-API-Key': '' } });
  await send('/v1/text-to-speech/stream', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ generate_text: 'Hello there, streamed for the dashboard.' }),
  });
}

describe.skipIf(executablePath === undefined)('the dashboard fits 1366×768 and up', () => {
  let server: MockServer;
  let browser: Browser;

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await mkdir(`${root}reports`, { recursive: true });
    server = await startMockServer({ port: 0, host: '127.0.0.1', serviceOptions: testServiceOptions });
    await busyJournal(server);
    browser = await launchChromium(executablePath);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each([
    [1366, 768],
    [1920, 1080],
  ])(
    'at %i×%i: no sideways scroll, nothing wider than its panel, every button and cell whole',
    async (width, height) => {
      const page = await browser.newPage({ viewport: { width, height }, colorScheme: 'light' });
      try {
        await page.goto(`${server.url}/__mock/`);
        await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 8000 });
        await page.getByRole('row').filter({ hasText: 'a_very_long_voice_identifier_' }).first().waitFor();
        await page.screenshot({ path: `${root}reports/dashboard-${width}x${height}.png` });
        const fit = await page.evaluate(() => {
          const doc = document.documentElement;
          const describe = (e: Element) =>
            `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
          // A part is cut when its content is wider than its box, or its box reaches past the window
          // or past the scroll area that holds it.
          const cut = [...document.querySelectorAll('button, th, td, table, .log, .state')].filter((e) => {
            const box = e.getBoundingClientRect();
            const holder = e.closest('.scroll, .voices')?.getBoundingClientRect();
            return (
              e.scrollWidth > e.clientWidth + 1 ||
              box.left < -0.5 ||
              box.right > doc.clientWidth + 0.5 ||
              (holder !== undefined && box.right > holder.right + 0.5)
            );
          });
          const sideways = [...document.querySelectorAll('.scroll, .voices')].filter(
            (e) => e.scrollWidth > e.clientWidth + 1,
          );
          return {
            scrollWidth: doc.scrollWidth,
            clientWidth: doc.clientWidth,
            cut: cut.map(describe),
            sideways: sideways.map(describe),
            rows: document.querySelectorAll('.log tbody tr').length,
            buttons: document.querySelectorAll('button').length,
          };
        });
        expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
        expect(fit.cut).toEqual([]);
        expect(fit.sideways).toEqual([]);
        expect(fit.rows).toBeGreaterThan(20);
        expect(fit.buttons).toBeGreaterThan(20);
      } finally {
        await page.close();
      }
    },
    30_000,
  );

  it('paints the state first, never an empty frame that says connecting…', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    try {
      // The first poll answers late, as a loaded mock would: until it has, the page shows nothing.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/__mock\/state/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${server.url}/__mock/`);
      await page.waitForTimeout(400);
      const early = await page.evaluate(() => ({
        header: document.querySelector('header') !== null,
        connecting: document.body.textContent.includes('connecting'),
      }));
      expect(early).toEqual({ header: false, connecting: false });
      release();
      await page.getByText('Custom voices (40)').waitFor({ timeout: 8000 });
      expect(await page.getByText('connecting…').count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 30_000);
});
