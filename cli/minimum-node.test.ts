import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTooOld, minimumNode, tooOldMessage } from './minimum-node.js';

const root = join(import.meta.dirname, '..');

describe('the oldest Node the kit runs on', () => {
  it('is what package.json "engines" says', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${minimumNode.major}.${minimumNode.minor}`);
  });

  it.each([
    ['20.19.0', true],
    ['22.11.0', true],
    ['22.12.0', false],
    ['22.23.3', false],
    ['24.0.0', false],
    ['26.10.0', false],
    ['8.17.0', true],
  ])('Node %s is too old: %s', (version, tooOld) => {
    expect(isTooOld(version)).toBe(tooOld);
  });

  it('is named in one line, with what to do next', () => {
    expect(tooOldMessage('20.19.0')).toBe(
      'voice-kit needs Node 22.12 or newer; this is Node 20.19.0. Install Node 22.12+ (nodejs.org, or nvm install 24), or in a clone of voice-kit run npm start, which uses the Node 24 that npm install pinned.',
    );
  });
});
