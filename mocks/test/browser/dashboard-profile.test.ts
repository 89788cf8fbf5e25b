/**
 * The dashboard's header says when a calibration profile is in effect, and which points it covers
 * (docs/calibration.md). Chromium as in dashboard.test.ts: skipped locally without one, fails in CI.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../node/server.js';
import { testServiceOptions } from '../helpers.js';
import { launchChromium, requiredChromium } from './chromium.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const executablePath = requiredChromium('the dashboard profile test');

const profile = {
  kind: 'voice-kit-profile',
  version: 1,
  points: {
    'list-order': { question: 'list-order', choice: { order: 'newest-first' } },
    'text-alias': { question: 'text-alias', choice: { accepted: true } },
  },
};

describe.skipIf(executablePath === undefined)('the dashboard with a calibration profile', () => {
  let server: MockServer;
  let browser: Browser;

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/build-dashboard.mjs'], { cwd: root }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    server = await startMockServer({ port: 0, serviceOptions: { ...testServiceOptions, profile } });
    browser = await launchChromium(executablePath);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('names the profile and its points in the header', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/__mock/`);
    const clock = page.locator('header .clock');
    await expect.poll(() => clock.textContent(), { timeout: 5000 }).toMatch(/ · profile: 2 points$/);
    expect(await clock.getAttribute('title')).toMatch(/list-order, text-alias$/);
  });
});
