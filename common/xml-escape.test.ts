import { describe, expect, it } from 'vitest';
import { xmlEscape } from './xml-escape.js';

describe('xmlEscape', () => {
  it('escapes XML and drops characters XML cannot hold', () => {
    expect(xmlEscape('a < b & "c" \'d\' \u0001>')).toBe('a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt;');
  });
});
