import { describe, expect, it } from 'vitest';
import { pathShown } from './path-shown.js';

describe('pathShown', () => {
  it('names the folder a relative path was read from, and leaves an absolute one as it is', () => {
    expect(pathShown('../x.json')).toBe(`../x.json (from ${process.cwd()})`);
    expect(pathShown('/etc/x.json')).toBe('/etc/x.json');
  });
});
