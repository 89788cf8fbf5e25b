import { describe, expect, it } from 'vitest';
import { prefersHtml } from './dashboard.js';

describe('prefersHtml: the page for browsers, the JSON index for everyone else', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', true],
    ['text/html', true],
    ['application/json, text/html;q=0.9', false],
    ['text/html;q=0.5, application/json', false],
    ['*/*', false],
    ['application/json', false],
    ['text/*', true],
    ['text/html, application/json', false],
    [null, false],
    ['', false],
  ])('%j → %j', (accept, html) => {
    expect(prefersHtml(accept)).toBe(html);
  });
});
