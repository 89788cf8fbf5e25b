import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the dashboard bundle', () => {
  // The page takes the journal's types from the core (format.ts); a value import would ship core code.
  it('holds the dashboard’s own code only: the core types it imports are erased', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, 'main.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      outfile: 'dashboard.js',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('mocks/dashboard/format.ts');
    expect(inputs.filter((path) => !path.startsWith('mocks/dashboard/'))).toEqual([]);
  });
});
