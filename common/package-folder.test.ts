import { describe, expect, it } from 'vitest';
import { packageFolder } from './package-folder.js';

describe('packageFolder', () => {
  it('is the folder holding dist/ for built code, in any folder under dist/', () => {
    for (const built of [
      'file:///app/node_modules/voice-kit/dist/fixtures/committed.js',
      'file:///app/node_modules/voice-kit/dist/bin/chunk-ABC123.js',
      'file:///app/node_modules/voice-kit/dist/mocks/node/dashboard.js',
    ])
      expect(packageFolder(built, 1).href, built).toBe('file:///app/node_modules/voice-kit/');
  });

  it('takes the last dist/ of the path: a project of the user may live under a folder named dist', () => {
    expect(packageFolder('file:///srv/dist/app/node_modules/voice-kit/dist/bin/voice-kit.js', 1).href).toBe(
      'file:///srv/dist/app/node_modules/voice-kit/',
    );
  });

  it('is sourceDepth folders up from a source module, even under a folder named dist', () => {
    expect(packageFolder('file:///src/voice-kit/fixtures/committed.ts', 1).href).toBe(
      'file:///src/voice-kit/',
    );
    expect(packageFolder('file:///dist/voice-kit/mocks/node/dashboard.ts', 2).href).toBe(
      'file:///dist/voice-kit/',
    );
  });

  it('keeps escaped characters of the path as they are', () => {
    expect(packageFolder('file:///my%20work/voice-kit/dist/bin/chunk-X.js', 1).href).toBe(
      'file:///my%20work/voice-kit/',
    );
  });
});
