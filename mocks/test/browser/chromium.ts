import { accessSync, constants } from 'node:fs';

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
