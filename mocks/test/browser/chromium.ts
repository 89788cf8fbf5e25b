import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** The Chromium binary to drive: $CHROMIUM_PATH, else Debian's; undefined when there is none. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const path of candidates) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * The Chromium a browser test file drives, or undefined to skip it; in CI a missing Chromium fails the
 * file instead (`what` names it), so a browser test never passes by being skipped there.
 */
export function requiredChromium(what: string): string | undefined {
  const path = chromiumPath();
  if (path === undefined && process.env.CI)
    throw new Error(`CI must run ${what}: install chromium (apt-get install chromium)`);
  return path;
}

/** Starts Debian's Chromium headless, quiet: no sandbox (CI runs as root), no GPU, no calls home. */
export function launchChromium(executablePath: string | undefined): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}
