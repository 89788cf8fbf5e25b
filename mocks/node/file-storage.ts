import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../core/platform/storage.js';
import { sweepOrphans, tempPrefix, writeOwner } from './temp-dir-owner.js';

const safeName = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_');

/** A fresh temporary directory, with this process written inside as its owner (temp-dir-owner.ts). */
async function ownedTempDir(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), tempPrefix));
  await writeOwner(directory);
  return directory;
}

/**
 * Storage in a fresh temporary directory (os.tmpdir()/voice-kit-*), so uploaded bytes never sit on the
 * JS heap of the Node server; close() removes the directory. At start it removes the directories of
 * mocks that were killed before they could (their owner process is gone).
 *
 * @example
 * const storage = await tempDirStorage(); // ... later: await storage.close();
 */
export async function tempDirStorage(): Promise<Storage & { readonly directory: string }> {
  await sweepOrphans(tmpdir());
  let directory = await ownedTempDir();
  const pathOf = (id: string) => join(directory, safeName(id));
  return {
    get directory() {
      return directory;
    },
    create(id) {
      const partial = `${pathOf(id)}.partial`;
      const out = createWriteStream(partial);
      let failure: Error | undefined;
      out.on('error', (error) => {
        failure = error;
      });
      return {
        async write(chunk) {
          if (failure) throw failure;
          if (out.write(chunk)) return;
          await new Promise<void>((resolve) => {
            const done = () => {
              out.off('drain', done).off('close', done);
              resolve();
            };
            out.on('drain', done).on('close', done);
          });
        },
        async close() {
          await new Promise<void>((resolve, reject) =>
            out.end((error?: Error | null) => (error ? reject(error) : resolve())),
          );
          if (failure) throw failure;
          await rename(partial, pathOf(id));
        },
        async abort() {
          out.destroy();
          await rm(partial, { force: true });
        },
      };
    },
    async read(id) {
      try {
        return new Uint8Array(await readFile(pathOf(id)));
      } catch {
        return undefined;
      }
    },
    remove: (id) => rm(pathOf(id), { force: true }),
    async clear() {
      await rm(directory, { recursive: true, force: true });
      directory = await ownedTempDir();
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
}
