/**
 * The kit's version, read from its package.json: `voice-kit --version` and `npm start -- --version`.
 * The file sits one folder up from cli/ (tsx), two up from dist/cli/ and from the bundle in dist/bin/
 * (package.json "bin"), so it is looked for upward.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The "version" of the nearest package.json named voice-kit above this file. */
export function kitVersion(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'voice-kit' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here: look one folder up.
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
