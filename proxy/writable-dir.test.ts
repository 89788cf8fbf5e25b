import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureWritableDir, ProxySetupError } from './writable-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'vk-proxy-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureWritableDir', () => {
  it('makes the folder and its parents, and leaves no probe behind', () => {
    ensureWritableDir(join(dir, 'a', 'b', 'c'), 'the report folder');
    expect(readdirSync(join(dir, 'a', 'b', 'c'))).toEqual([]);
  });

  it('refuses a folder that is a file, or under one, in one line', () => {
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => ensureWritableDir(join(dir, 'file'), 'the report folder')).toThrow(
      new ProxySetupError(`the report folder ${join(dir, 'file')} cannot be written: ENOTDIR`),
    );
    expect(() => ensureWritableDir(join(dir, 'file', 'sub'), 'the report folder')).toThrow(
      /cannot be written: ENOTDIR/,
    );
  });

  it('refuses /proc/nope at once (Node’s recursive mkdir spins on it forever)', () => {
    // Synchronous: a spin would never return, and the test's timeout would fail it.
    expect(() => ensureWritableDir('/proc/nope/deeper', 'the report folder')).toThrow(
      /cannot be written: ENOENT/,
    );
  });
});
