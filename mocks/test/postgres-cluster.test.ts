/**
 * The test cluster's binaries on a fresh install: the library links their package's postinstall would
 * make (and that package.json's allowScripts keeps off) are made by the harness, so initdb loads.
 */
import { lstat, mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkBinaryLibraries } from './postgres-cluster.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A binaries package as npm unpacks it: the libraries, their link list, no links. */
async function unpacked(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'voice-kit-pglinks-'));
  made.push(home);
  await mkdir(join(home, 'native', 'lib'), { recursive: true });
  await writeFile(join(home, 'native', 'lib', 'libicuuc.so.60.2'), 'elf');
  await writeFile(
    join(home, 'native', 'pg-symlinks.json'),
    JSON.stringify([
      { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so.60' },
      { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so' },
    ]),
  );
  return home;
}

describe('linkBinaryLibraries', () => {
  it('makes the missing links, relative, and leaves made ones be on a second run', async () => {
    const home = await unpacked();
    await linkBinaryLibraries(home);
    for (const name of ['libicuuc.so.60', 'libicuuc.so']) {
      expect((await lstat(join(home, 'native', 'lib', name))).isSymbolicLink()).toBe(true);
      expect(await readlink(join(home, 'native', 'lib', name))).toBe('libicuuc.so.60.2');
    }
    await expect(linkBinaryLibraries(home)).resolves.toBeUndefined();
    await Promise.all([linkBinaryLibraries(home), linkBinaryLibraries(home)]);
  });

  it('does nothing for a package without a link list', async () => {
    const home = await mkdtemp(join(tmpdir(), 'voice-kit-pglinks-'));
    made.push(home);
    await expect(linkBinaryLibraries(home)).resolves.toBeUndefined();
  });
});
