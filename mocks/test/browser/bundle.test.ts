/**
 * The root export and voice-kit/msw bundle for the browser: esbuild with platform "browser" fails on any
 * Node built-in they reach (as a user's Vite, Storybook or Vitest browser build would). Runs without a
 * browser, so it guards the core on every machine.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('browser bundles', () => {
  it.each([
    ['voice-kit', '../../index.ts'],
    ['voice-kit/msw', '../../msw.ts'],
  ])('%s bundles for the browser with no Node built-in', async (_name, path) => {
    const result = await build({
      entryPoints: [entry(path)],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['msw'],
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /(^|\/)node:|busboy|\/mocks\/node\//.test(input))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('mocks/core/service.ts'))).toBe(true);
  });

  // POST /__mock/populate imports Faker (~2 MB) only when it runs: a bundler that splits code (Vite,
  // esbuild --splitting) keeps it out of the chunk every page loads.
  it('keeps @faker-js/faker out of the entry chunk', async () => {
    const result = await build({
      entryPoints: [entry('../../index.ts')],
      bundle: true,
      splitting: true,
      outdir: 'out',
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    const entryChunk = outputs.find(([, output]) => output.entryPoint?.endsWith('mocks/index.ts'));
    const fakerIn = (inputs: object) => Object.keys(inputs).some((input) => input.includes('@faker-js'));
    expect(entryChunk && fakerIn(entryChunk[1].inputs)).toBe(false);
    expect(outputs.some(([, output]) => fakerIn(output.inputs))).toBe(true);
  });
});
