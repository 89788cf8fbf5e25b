/**
 * Reading a file the user names with a cap on the bytes actually read, not on the size the file
 * claims: `/dev/zero`, a pipe or a process substitution has no size, and would otherwise be read
 * until memory runs out. **Node only**.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** A file that holds more than the cap: nothing of it is kept. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * The file at `path` as UTF-8 text, read in chunks and abandoned as soon as it holds more than
 * `maxBytes`; throws FileTooLargeError then (and the file system's error when it cannot be read).
 *
 * @example
 * const text = await readTextCapped('profile.json', 16 * 1024 * 1024);
 */
export async function readTextCapped(path: string, maxBytes: number): Promise<string> {
  const file = await open(path, 'r');
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(64 * 1024, maxBytes + 1 - total));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * readTextCapped, synchronously: for a small file read while a command starts (`--keys`).
 *
 * @example
 * const text = readTextCappedSync('keys.json', 1024 * 1024);
 */
export function readTextCappedSync(path: string, maxBytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(64 * 1024, maxBytes + 1 - total));
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLargeError(maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
