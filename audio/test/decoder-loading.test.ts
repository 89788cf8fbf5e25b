import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const decoders = ['mpg123-decoder', 'ogg-opus-decoder', 'opus-decoder', '@wasm-audio-decoders/ogg-vorbis'];
const folder = new URL('../', import.meta.url);

// Each decoder module costs tens of milliseconds to import (its wasm is inlined). Importing one at the
// top of any analysis file would put that cost on every start of the mock, so only import() may load them.
describe('the wasm decoders are loaded on first use, not at import', () => {
  it('no module of audio imports a decoder statically (type-only imports aside)', async () => {
    // The engine lives in subfolders (analysis/, synthesis/, containers/); test/ holds no engine module.
    const files = (await readdir(folder, { recursive: true })).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.startsWith('test/'),
    );
    expect(files).toContain('analysis/decode-compressed.ts');
    const offenders: string[] = [];
    for (const name of files) {
      const source = await readFile(new URL(name, folder), 'utf8');
      for (const decoder of decoders) {
        const statics = new RegExp(`^import (?!type )[^;]*from '${decoder}';`, 'm');
        if (statics.test(source)) offenders.push(`${name} → ${decoder}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
