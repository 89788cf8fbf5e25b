import { describe, expect, it } from 'vitest';
import { originForm } from './request-target.js';

describe('originForm', () => {
  it('keeps a path as it came, a //[ target included (the upstream answers it)', () => {
    expect(originForm('/v1/voice/list?page_size=2')).toBe('/v1/voice/list?page_size=2');
    expect(originForm('//[')).toBe('//[');
  });
  it('takes the path and query of an absolute-form target, never its authority', () => {
    expect(originForm('http://metadata.invalid/latest?x=1')).toBe('/latest?x=1');
    expect(originForm('https://other.host')).toBe('/');
  });
  it('has none for an authority, an asterisk or a URL that does not parse', () => {
    expect(originForm('other.host:443')).toBeUndefined();
    expect(originForm('*')).toBeUndefined();
    expect(originForm('http://[/x')).toBeUndefined();
    expect(originForm('ftp://other.host/x')).toBeUndefined();
  });
});
